package refserver_test

import (
	"strings"
)

func init() { confAreas["user_topics"] = confCasesUserTopics }

// confCasesUserTopics are the conformance requests of user topics.
func confCasesUserTopics(add func(confGroup)) {
	add(confGroup{op: "update-user-topic", steps: []confStep{
		confOK("follow", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "3")),
		confOK("topic without messages", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "7", "topic", "nothing yet", "visibility_policy", "1")),
		confOK("reset", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "0")),
		confBad("invalid policy", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", "lunch", "visibility_policy", "7"), 400, ""),
		confBad("unknown channel", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "999", "topic", "lunch", "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("private channel of others", "update-user-topic", confGuest, confPOST, "/user_topics", confP("stream_id", "3", "topic", "logo", "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("topic too long", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "topic", strings.Repeat("t", 61), "visibility_policy", "1"), 400, "BAD_REQUEST"),
		confBad("missing topic", "update-user-topic", confMember, confPOST, "/user_topics", confP("stream_id", "1", "visibility_policy", "1"), 400, "REQUEST_VARIABLE_MISSING"),
	}})
}
