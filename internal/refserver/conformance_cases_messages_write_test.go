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
	confUnmodelledParams["update-message topic"] = "moving messages (topic and channel changes) is not modelled; PATCH /messages edits content"
	confNewestDeviations = append(confNewestDeviations, confDeviation{
		what: "POST /messages: a channel id that names no channel is STREAM_DOES_NOT_EXIST with stream_id",
		reason: "the answer's schema lists only NonExistingChannelNameError (the name form); Zulip answers an unknown id " +
			"with StreamWithIDDoesNotExistError, which the description documents as NonExistingChannelIdError",
		source: "zerver/actions/message_send.py validate_stream_id_with_pm_notification (raise StreamWithIDDoesNotExistError(stream_id))",
		fl420:  true,
		patch:  confAddErrorAlternative("send-message", "stream_id", openapi3.NewIntegerSchema()),
	})
	confUnmodelledParams["update-message stream_id"] = "moving messages (topic and channel changes) is not modelled; PATCH /messages edits content"
}

// confAddErrorAlternative returns a patch that lets an operation's 400 answer
// be a CodedError carrying one more property.
func confAddErrorAlternative(operationID, property string, schema *openapi3.Schema) func(doc *openapi3.T) error {
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
				alt.Properties[property] = openapi3.NewSchemaRef("", schema)
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
