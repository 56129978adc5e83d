package zulip

import (
	"net/url"
	"reflect"
	"strings"
	"testing"
)

func TestParams_encoding(t *testing.T) {
	p := newParams().
		str("full_name", `Ada "Countess" Lovelace`).
		str("empty", "").
		optStr("unset", nil).
		optStr("set", ptr("x y")).
		int("plain_int", 42).
		json("flag_true", true).
		json("flag_false", false).
		json("number", 5).
		json("ids", []int64{3, 2, 1}).
		json("empty_list", []string{}).
		json("object", map[string]bool{"linkifier_url_template": true}).
		json("template", []string{"https://x.example/{id}?a=1&b=<2>"}).
		json("quoted", "text").
		optJSONBool("unset_bool", nil).
		optJSONBool("set_bool", ptr(false))
	encoded, err := p.encode()
	if err != nil {
		t.Fatal(err)
	}
	got, err := url.ParseQuery(encoded)
	if err != nil {
		t.Fatal(err)
	}
	want := url.Values{
		"full_name":  {`Ada "Countess" Lovelace`},
		"empty":      {""},
		"set":        {"x y"},
		"plain_int":  {"42"},
		"flag_true":  {"true"},
		"flag_false": {"false"},
		"number":     {"5"},
		"ids":        {"[3,2,1]"},
		"empty_list": {"[]"},
		"object":     {`{"linkifier_url_template":true}`},
		"template":   {`["https://x.example/{id}?a=1&b=<2>"]`},
		"quoted":     {`"text"`},
		"set_bool":   {"false"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("encoded\n got %v\nwant %v", got, want)
	}
	// The wire form is percent-encoded form data, spaces as "+".
	if !strings.Contains(encoded, "set=x+y") {
		t.Errorf("wire form %q", encoded)
	}
}

func TestParams_encodeError(t *testing.T) {
	p := newParams().json("bad", make(chan int)).str("after", "x")
	if _, err := p.encode(); err == nil || !strings.Contains(err.Error(), `"bad"`) {
		t.Fatalf("encode error = %v, want one naming the parameter", err)
	}
}

func TestParams_nil(t *testing.T) {
	var p *params
	if s, err := p.encode(); s != "" || err != nil {
		t.Errorf("nil params encode = %q, %v", s, err)
	}
}
