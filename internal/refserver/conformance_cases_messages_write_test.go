package refserver_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"
)

func init() {
	confAreas["messages_write"] = confCasesMessageWrites
	confUnmodelledParams["send-message queue_id"] = "local echo is not modelled: the message event carries no local_message_id"
	confUnmodelledParams["send-message local_id"] = "local echo is not modelled: the message event carries no local_message_id"
	confNewestDeviations = append(confNewestDeviations, confDeviation{
		what: "POST /messages: a channel id that names no channel is STREAM_DOES_NOT_EXIST with stream_id",
		reason: "the answer's schema lists only NonExistingChannelNameError (the name form); Zulip answers an unknown id " +
			"with StreamWithIDDoesNotExistError, which the description documents as NonExistingChannelIdError",
		source: "zerver/actions/message_send.py validate_stream_id_with_pm_notification (raise StreamWithIDDoesNotExistError(stream_id))",
		fl420:  true,
		patch:  confAddErrorAlternative("send-message", "stream_id", openapi3.NewIntegerSchema()),
	})
	confNewestDeviations = append(confNewestDeviations, confDeviation{
		what: "PATCH /messages/{message_id}: MOVE_MESSAGES_TIME_LIMIT_EXCEEDED carries first_message_id_allowed_to_move, " +
			"total_messages_in_topic and total_messages_allowed_to_move",
		reason: "the answer's schema is a closed CodedError, although its own example (and Zulip) sends the three fields " +
			"that say which part of the topic the user may move",
		source: "zerver/lib/exceptions.py MessageMoveError (data_fields); " +
			"zerver/actions/message_edit.py check_time_limit_for_change_all_propagate_mode",
		fl420: true,
		patch: confAddErrorProperties("update-message", openapi3.Schemas{
			"first_message_id_allowed_to_move": openapi3.NewSchemaRef("", openapi3.NewIntegerSchema()),
			"total_messages_in_topic":          openapi3.NewSchemaRef("", openapi3.NewIntegerSchema()),
			"total_messages_allowed_to_move":   openapi3.NewSchemaRef("", openapi3.NewIntegerSchema()),
		}),
	})
	confUnmodelledParams["update-message stream_id"] = "moving messages to another channel is not modelled; PATCH /messages edits content and topics"
}

// confAddErrorAlternative returns a patch that lets an operation's 400 answer
// be a CodedError carrying one more property.
func confAddErrorAlternative(operationID, property string, schema *openapi3.Schema) func(doc *openapi3.T) error {
	return confAddErrorProperties(operationID, openapi3.Schemas{property: openapi3.NewSchemaRef("", schema)})
}

// confAddErrorProperties returns a patch that lets an operation's 400 answer
// be a CodedError carrying more properties.
func confAddErrorProperties(operationID string, properties openapi3.Schemas) func(doc *openapi3.T) error {
	return func(doc *openapi3.T) error {
		coded := doc.Components.Schemas["CodedError"]
		if coded == nil || coded.Value == nil {
			return errors.New("no schema CodedError")
		}
		for _, item := range doc.Paths.Map() {
			for _, op := range item.Operations() {
				if op.OperationID != operationID || op.Responses == nil {
					continue
				}
				resp := op.Responses.Value("400")
				if resp == nil || resp.Value == nil || resp.Value.Content["application/json"] == nil {
					return errors.New("no JSON 400 answer")
				}
				alt := *coded.Value
				alt.Properties = openapi3.Schemas{}
				for k, v := range coded.Value.Properties {
					alt.Properties[k] = v
				}
				for k, v := range properties {
					alt.Properties[k] = v
				}
				mt := resp.Value.Content["application/json"]
				mt.Schema = openapi3.NewSchemaRef("", &openapi3.Schema{AnyOf: openapi3.SchemaRefs{mt.Schema, openapi3.NewSchemaRef("", &alt)}})
				return nil
			}
		}
		return fmt.Errorf("no operation %s", operationID)
	}
}

// confSHA256 is the hexadecimal SHA-256 of s.
func confSHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// confCasesMessageWrites are the conformance requests of sending, fetching,
// editing and deleting messages.
func confCasesMessageWrites(add func(confGroup)) {
	send := func(name string, user int, params map[string]string) confStep {
		return confOK(name, "send-message", user, confPOST, "/messages", params)
	}
	add(confGroup{op: "send-message", steps: []confStep{
		send("to a channel by name", confMember, confP("type", "stream", "to", "general", "topic", "hello", "content", "Hi @**Mei Member**!")),
		send("to a channel by id, type channel, read by the sender", confMember, confP("type", "channel", "to", "1", "topic", "hello",
			"content", "Again", "read_by_sender", "true")),
		send("direct, by ids", confMember, confP("type", "direct", "to", "[11]", "content", "Psst")),
		send("direct, by e-mail, legacy type", confMember, confP("type", "private", "to", `["`+confEmail("mei")+`"]`, "content", "Psst again")),
		send("a guest to a public channel it is subscribed to", confGuest, confP("type", "stream", "to", "random", "topic", "cats", "content", "Meow")),
		confBad("unknown channel name", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "nope", "topic", "t", "content", "x"), 400, "STREAM_DOES_NOT_EXIST"),
		confBad("unknown channel id", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "999", "topic", "t", "content", "x"), 400, "STREAM_DOES_NOT_EXIST"),
		confBad("missing topic", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "general", "content", "x"), 400, "BAD_REQUEST"),
		confBad("empty content", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "general", "topic", "t", "content", "  "), 400, "BAD_REQUEST"),
		confBad("missing type", "send-message", confMember, confPOST, "/messages", confP("to", "general", "topic", "t", "content", "x"), 400, "REQUEST_VARIABLE_MISSING"),
		confBad("not allowed to post", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "announce", "topic", "t", "content", "x"), 400, "BAD_REQUEST"),
		confBad("private channel of others", "send-message", confMember2, confPOST, "/messages", confP("type", "stream", "to", "design", "topic", "t", "content", "x"), 400, "BAD_REQUEST"),
		confBad("archived channel", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "old-projects", "topic", "t", "content", "x"), 400, "BAD_REQUEST"),
		confBad("unknown user", "send-message", confMember, confPOST, "/messages", confP("type", "direct", "to", "[999]", "content", "x"), 400, "BAD_REQUEST"),
		confBefore(confBad("empty topic disabled", "send-message", confMember, confPOST, "/messages", confP("type", "stream", "to", "general", "topic", "", "content", "x"), 400, "BAD_REQUEST"),
			func(s *refserver.Server) {
				s.Do(func(r *refserver.Realm) {
					r.Channels[refserver.SeedChannelGeneral].TopicsPolicy = "disable_empty_topic"
				})
			}),
	}})
	add(confGroup{op: "get-message", steps: []confStep{
		confOK("a channel message", "get-message", confMember, confGET, "/messages/1", nil),
		confOK("raw, empty topic allowed", "get-message", confMember3, confGET, "/messages/14", confP("apply_markdown", "false", "allow_empty_topic_name", "true")),
		confCapture(send("send a direct message", confMember, confP("type", "direct", "to", "[11,6]", "content", "Group chat")), "dm", "id"),
		confOK("a direct message", "get-message", confMember3, confGET, "/messages/${dm}", nil),
		confBad("not a recipient of the direct message", "get-message", confOwner, confGET, "/messages/${dm}", nil, 400, "BAD_REQUEST"),
		confBad("a private channel's message", "get-message", confGuest, confGET, "/messages/8", nil, 400, "BAD_REQUEST"),
		confBad("unknown", "get-message", confMember, confGET, "/messages/999", nil, 400, "BAD_REQUEST"),
	}})
	add(confGroup{op: "update-message", steps: []confStep{
		confCapture(send("send", confMember, confP("type", "stream", "to", "general", "topic", "edits", "content", "First draft")), "m", "id"),
		confOK("edit the content", "update-message", confMember, confPATCH, "/messages/${m}", confP("content", "Second draft",
			"send_notification_to_old_thread", "false", "send_notification_to_new_thread", "false")),
		confOK("with the previous content's hash", "update-message", confMember, confPATCH, "/messages/${m}",
			confP("content", "Third draft", "prev_content_sha256", confSHA256("Second draft"), "propagate_mode", "change_one")),
		confBad("a stale hash", "update-message", confMember, confPATCH, "/messages/${m}",
			confP("content", "Fourth draft", "prev_content_sha256", confSHA256("Second draft")), 400, "EXPECTATION_MISMATCH"),
		confBad("someone else's message", "update-message", confOwner, confPATCH, "/messages/${m}", confP("content", "Mine now"), 400, "BAD_REQUEST"),
		confBad("past the time limit", "update-message", confMember, confPATCH, "/messages/2", confP("content", "Late"), 400, "BAD_REQUEST"),
		confBad("nothing to change", "update-message", confMember, confPATCH, "/messages/${m}", nil, 400, "BAD_REQUEST"),
		confBad("propagate_mode without a topic", "update-message", confMember, confPATCH, "/messages/${m}", confP("content", "x", "propagate_mode", "change_all"), 400, "BAD_REQUEST"),
		confBefore(confBad("editing turned off", "update-message", confMember, confPATCH, "/messages/${m}", confP("content", "x"), 400, "BAD_REQUEST"),
			func(s *refserver.Server) {
				s.Do(func(r *refserver.Realm) { r.SetSetting("allow_message_editing", false) })
			}),
	}})
	confCasesMessageMoves(add)
	add(confGroup{op: "delete-message", steps: []confStep{
		confCapture(send("send", confMember, confP("type", "stream", "to", "general", "topic", "oops", "content", "Wrong channel")), "m", "id"),
		confBad("someone else's message", "delete-message", confMember2, confDELETE, "/messages/${m}", nil, 400, "BAD_REQUEST"),
		confOK("one's own message", "delete-message", confMember, confDELETE, "/messages/${m}", nil),
		confBad("deleted already", "delete-message", confMember, confDELETE, "/messages/${m}", nil, 400, "BAD_REQUEST"),
		confBad("past the time limit", "delete-message", confMember, confDELETE, "/messages/2", nil, 400, "BAD_REQUEST"),
		confOK("an administrator, any message", "delete-message", confAdmin, confDELETE, "/messages/2", nil),
		confBad("in an archived channel", "delete-message", confAdmin, confDELETE, "/messages/9", nil, 400, "BAD_REQUEST"),
	}})
}

// confCasesMessageMoves are the conformance requests of moving messages to
// another topic (PATCH /messages/{message_id} with topic), and the events a
// move sends.
func confCasesMessageMoves(add func(confGroup)) {
	edit := func(name string, user int, params map[string]string) confStep {
		return confOK(name, "update-message", user, confPATCH, "/messages/${m}", params)
	}
	bad := func(name string, user int, params map[string]string, code string) confStep {
		return confBad(name, "update-message", user, confPATCH, "/messages/${m}", params, 400, code)
	}
	send := confCapture(confOK("send", "send-message", confMember, confPOST, "/messages",
		confP("type", "stream", "to", "general", "topic", "welcome", "content", "Late to the party")), "m", "id")
	add(confGroup{op: "update-message", name: "update-message (topic moves)", steps: []confStep{
		send,
		confBad("someone else's message past the time limit", "update-message", confMember, confPATCH, "/messages/1",
			confP("topic", "moved"), 400, "BAD_REQUEST"),
		edit("move one message, both notices", confMember, confP("topic", "moved", "send_notification_to_old_thread", "true")),
		edit("move it back with the legacy name, no notice", confMember, confP("subject", "welcome", "send_notification_to_new_thread", "false")),
		edit("topic and content together", confMember, confP("topic", "together", "content", "Edited while moving")),
		edit("resolve the topic, change_all", confAdmin, confP("topic", "✔ together", "propagate_mode", "change_all")),
		bad("resolving general chat", confMember, confP("topic", "✔ general chat"), "BAD_REQUEST"),
		bad("an invalid character", confMember, confP("topic", "a\tb"), "BAD_REQUEST"),
		confBefore(bad("moving not allowed", confMember, confP("topic", "elsewhere"), "BAD_REQUEST"), func(s *refserver.Server) {
			s.Do(func(r *refserver.Realm) {
				r.Settings.GroupSettings["can_move_messages_between_topics_group"] = refserver.GroupSetting{GroupID: refserver.GroupNobody}
			})
		}),
	}})
	add(confGroup{op: "update-message", name: "update-message (time limits)", steps: []confStep{
		confBefore(send, func(s *refserver.Server) {
			s.Do(func(r *refserver.Realm) { r.SetSetting("move_messages_within_stream_limit_seconds", 600) })
		}),
		bad("a topic older messages share, change_all", confMember, confP("topic", "moved", "propagate_mode", "change_all"),
			"MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"),
		edit("the newest message, change_later", confMember, confP("topic", "moved", "propagate_mode", "change_later")),
		confBad("an old message", "update-message", confMember, confPATCH, "/messages/2", confP("topic", "moved"), 400, "BAD_REQUEST"),
		confOK("a moderator, an old message", "update-message", confMod, confPATCH, "/messages/2", confP("topic", "moved", "propagate_mode", "change_all")),
	}})
	add(confGroup{op: "register-queue", name: "get-events (a topic move)", opts: refserver.Options{FeatureLevel: 420}, steps: []confStep{
		confCapture(confOK("register for edits", "register-queue", confMember3, confPOST, "/register",
			confP("event_types", `["update_message","message"]`)), "queue_id", "queue_id"),
		confCapture(confOK("send", "send-message", confMember, confPOST, "/messages",
			confP("type", "stream", "to", "general", "topic", "fresh", "content", "A new topic")), "m", "id"),
		edit("move the topic", confMember, confP("topic", "moved", "propagate_mode", "change_all")),
		edit("edit and move", confMember, confP("topic", "again", "content", "Edited")),
		confOK("the events", "get-events", confMember3, confGET, "/events", confP("queue_id", "${queue_id}", "last_event_id", "-1", "dont_block", "true")),
	}})
}
