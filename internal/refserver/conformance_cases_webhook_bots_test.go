package refserver_test

func init() { confAreas["webhook_bots"] = confCasesWebhookBots }

// confCasesWebhookBots are an incoming webhook bot's requests: authentication
// refuses its key on every route but sending a message (zerver/decorator.py
// validate_api_key, allow_incoming_webhooks in zproject/urls.py).
func confCasesWebhookBots(add func(confGroup)) {
	add(confGroup{op: "send-message", name: "send-message (incoming webhook bot)", noAuth: true, steps: []confStep{
		confOK("an incoming webhook bot sends", "send-message", confHook, confPOST, "/messages",
			confP("type", "stream", "to", "general", "topic", "alerts", "content", "disk full")),
		confBad("an incoming webhook bot reads its account", "get-own-user", confHook, confGET, "/users/me", nil, 401, "UNAUTHORIZED"),
		confBad("an incoming webhook bot reads events", "get-events", confHook, confGET, "/events", confP("queue_id", "x"), 401, "UNAUTHORIZED"),
	}})
}
