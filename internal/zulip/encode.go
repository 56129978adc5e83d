package zulip

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"mime/multipart"
	"net/textproto"
	"net/url"
	"slices"
	"strconv"
)

// params collects the parameters of one request and is the only place that decides how a
// value is put on the wire. Zulip reads string parameters as they are and JSON-decodes only
// the parameters its API description marks as JSON (digest §0.1), so a full_name must never
// be quoted while a bool must be the JSON literal true or false and a list must be a JSON
// array. Each method call site therefore states the encoding explicitly: str for plain
// parameters, json for the marked ones. The same values become the form body of a
// POST/PATCH/DELETE or the query string of a GET.
type params struct {
	values url.Values
	err    error
}

// newParams returns an empty parameter set.
func newParams() *params {
	return &params{values: url.Values{}}
}

// str adds a plain string parameter, sent exactly as given.
func (p *params) str(name, value string) *params {
	p.values.Set(name, value)
	return p
}

// optStr adds a plain string parameter when value is not nil; nil means "not sent".
func (p *params) optStr(name string, value *string) *params {
	if value != nil {
		p.str(name, *value)
	}
	return p
}

// int adds an integer parameter that Zulip reads as a plain string (path-like ids, for
// example). Integers that Zulip marks as JSON go through json, which gives the same text.
func (p *params) int(name string, value int64) *params {
	p.values.Set(name, strconv.FormatInt(value, 10))
	return p
}

// json adds a parameter that Zulip marks as JSON-encoded: value is serialized with
// encoding/json (bools as true/false, numbers, arrays, objects, strings quoted).
func (p *params) json(name string, value any) *params {
	text, err := marshalJSONParam(value)
	if err != nil {
		if p.err == nil {
			p.err = fmt.Errorf("zulip: encoding parameter %q: %w", name, err)
		}
		return p
	}
	p.values.Set(name, text)
	return p
}

// optJSONBool adds a JSON bool parameter when value is not nil.
func (p *params) optJSONBool(name string, value *bool) *params {
	if value != nil {
		p.json(name, *value)
	}
	return p
}

// optJSONInt adds a JSON integer parameter when value is not nil.
func (p *params) optJSONInt(name string, value *int64) *params {
	if value != nil {
		p.json(name, *value)
	}
	return p
}

// jsonList adds a JSON array of ids; nil is sent as [] (for parameters that must be present).
func (p *params) jsonList(name string, ids []int64) *params {
	if ids == nil {
		ids = []int64{}
	}
	return p.json(name, ids)
}

// optJSONList adds a JSON array of ids when ids is not nil; an empty, non-nil slice is
// sent as [].
func (p *params) optJSONList(name string, ids []int64) *params {
	if ids != nil {
		p.json(name, ids)
	}
	return p
}

// encode returns the parameters in application/x-www-form-urlencoded form, which is also the
// query-string form.
func (p *params) encode() (string, error) {
	if p == nil {
		return "", nil
	}
	if p.err != nil {
		return "", p.err
	}
	return p.values.Encode(), nil
}

// marshalJSONParam serializes one JSON parameter. HTML escaping is turned off because the
// value is not embedded in HTML: "<" in a URL template should travel as "<", which keeps the
// wire form readable and equal to what Zulip's own clients send.
func marshalJSONParam(value any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		return "", err
	}
	return string(bytes.TrimRight(buf.Bytes(), "\n")), nil
}

// multipartBody is a multipart/form-data body of the parameters and one file,
// and its content type.
func multipartBody(p *params, f *fileUpload) (string, string, error) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	if p != nil {
		for _, k := range slices.Sorted(maps.Keys(p.values)) {
			if err := mw.WriteField(k, p.values.Get(k)); err != nil {
				return "", "", err
			}
		}
	}
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name=%q; filename=%q`, f.field, f.filename))
	h.Set("Content-Type", f.contentType)
	w, err := mw.CreatePart(h)
	if err != nil {
		return "", "", err
	}
	if _, err := w.Write(f.data); err != nil {
		return "", "", err
	}
	if err := mw.Close(); err != nil {
		return "", "", err
	}
	return buf.String(), mw.FormDataContentType(), nil
}
