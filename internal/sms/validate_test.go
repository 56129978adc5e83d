package sms

import (
	"errors"
	"testing"
)

func TestValidateE164(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"+46700000000", true},
		{"+12", true},                // shortest: country code plus one digit
		{"+123456789012345", true},   // 15 digits
		{"+1234567890123456", false}, // 16 digits
		{"+1", false},
		{"", false},
		{"46700000000", false},
		{"+046700000000", false},
		{"+46 70 000 00 00", false},
		{"+46-700000000", false},
		{"+4670000000a", false},
		{"++46700000000", false},
		{"+46700000000\n", false},
		{"+٤٦٧٠٠٠٠٠٠٠٠", false}, // Arabic-Indic digits are not ASCII digits
	}
	for _, tt := range tests {
		err := ValidateE164(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateE164(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestValidateLifetimeHours(t *testing.T) {
	tests := []struct {
		in int
		ok bool
	}{
		{-1, false},
		{0, false},
		{1, true},
		{16, true},
		{72, true},
		{73, false},
		{1000, false},
	}
	for _, tt := range tests {
		err := ValidateLifetimeHours(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateLifetimeHours(%d) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestValidateReplyURL(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"https://example.com/reply_url", true},
		{"http://127.0.0.1:8080/hook?conv=1", true},
		{"https://[::1]:8443/", true},
		{"", false},
		{"/reply", false},
		{"example.com/reply", false},
		{"ftp://example.com/reply", false},
		{"https://", false},
		{"https:///path", false},
		{"mailto:a@example.com", false},
		{" https://example.com/", false},
		{"https://exa mple.com/", false},
	}
	for _, tt := range tests {
		err := ValidateReplyURL(tt.in)
		if (err == nil) != tt.ok {
			t.Errorf("ValidateReplyURL(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

func TestQuestionRequestValidate(t *testing.T) {
	ok := QuestionRequest{To: "+46700000000", Message: "m", ReplyURL: "https://e.example/"}
	if err := ok.Validate(); err != nil {
		t.Errorf("valid request: %v", err)
	}
	ok.LifetimeHours = 0 // server default
	if err := ok.Validate(); err != nil {
		t.Errorf("lifetime 0: %v", err)
	}
	bad := ok
	bad.To = "+0"
	var vErr *ValidationError
	if err := bad.Validate(); !errors.As(err, &vErr) || vErr.Field != "to" {
		t.Errorf("bad to: %v", err)
	}
}
