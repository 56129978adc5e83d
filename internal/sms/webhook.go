package sms

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// Reply is one incoming SMS delivered to a conversation's reply_url.
type Reply struct {
	// ID is the SMS id ("s…"), from the "id" parameter or, as in the
	// docs' example payload, "sms_id".
	ID string
	// From is the replier's number.
	From string
	// To is the 46elks number the reply was sent to (may be empty: the
	// docs' example omits it).
	To string
	// Message is the reply text.
	Message string
	// Direction is "incoming" when present.
	Direction string
	// Created is when 46elks received the reply (UTC); zero if absent.
	Created time.Time
	// Token is the token given when the question was sent, if any.
	Token string
}

// ParseReply reads the form-encoded reply webhook 46elks POSTs to a
// reply_url. The docs disagree on the SMS id's name (the parameter table says
// "id", the example "sms_id"), so both are accepted, "id" winning if both are
// present. A missing SMS id or sender, or a malformed "created", is an error:
// the handler should then answer 4xx.
func ParseReply(r *http.Request) (Reply, error) {
	if r.Method != http.MethodPost {
		return Reply{}, fmt.Errorf("sms: reply webhook: method %s, want POST", r.Method)
	}
	if err := r.ParseForm(); err != nil {
		return Reply{}, fmt.Errorf("sms: reply webhook: %w", err)
	}
	f := r.PostForm
	rep := Reply{
		ID:        f.Get("id"),
		From:      f.Get("from"),
		To:        f.Get("to"),
		Message:   f.Get("message"),
		Direction: f.Get("direction"),
		Token:     f.Get("token"),
	}
	if rep.ID == "" {
		rep.ID = f.Get("sms_id")
	}
	if rep.ID == "" {
		return Reply{}, errors.New("sms: reply webhook: no id or sms_id parameter")
	}
	if rep.From == "" {
		return Reply{}, errors.New("sms: reply webhook: no from parameter")
	}
	created, err := ParseTime(f.Get("created"))
	if err != nil {
		return Reply{}, fmt.Errorf("sms: reply webhook: created: %w", err)
	}
	rep.Created = created
	return rep, nil
}

// WebhookAnswer is the optional JSON a reply webhook may return: Reply makes
// 46elks answer the recipient by SMS, and Retain keeps the conversation open
// for another reply (otherwise it closes after this one).
type WebhookAnswer struct {
	// Reply is the text of an SMS sent back to the replier; empty sends none.
	Reply string `json:"reply,omitempty"`
	// Retain keeps the conversation open after this reply.
	Retain bool `json:"retain,omitempty"`
}

// WriteWebhookAnswer writes a as a 200 JSON response. A webhook that has
// nothing to say can simply answer 200 with an empty body instead.
func WriteWebhookAnswer(w http.ResponseWriter, a WebhookAnswer) error {
	body, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("sms: encoding webhook answer: %w", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(body)
	return err
}
