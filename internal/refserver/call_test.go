package refserver

import "testing"

// TestTypeErrorMessage pins the wording of typed-parameter errors on what
// zerver/lib/typed_endpoint.py does: pydantic validates in strict mode, the
// first error is reported, its location is appended to the parameter's name
// as [0] or ["key"] (json.dumps of each loc item), and ERROR_TEMPLATES words it.
func TestTypeErrorMessage(t *testing.T) {
	var (
		b  bool
		n  int
		s  string
		li []int
		ls []string
		m  map[string]bool
	)
	cases := []struct {
		text string
		dst  any
		want string
	}{
		{`1`, &b, "x is not a boolean"},
		{`"true"`, &b, "x is not a boolean"},
		{`"5"`, &n, "x is not an integer"},
		{`5.0`, &n, "x is not an integer"}, // a JSON float is not a strict int
		{`5e2`, &n, "x is not an integer"},
		{`true`, &n, "x is not an integer"},
		{`5`, &s, "x is not a string"},
		{`{"a":1}`, &li, "x is not a list"},
		{`[1,"2",3]`, &li, "x[1] is not an integer"},
		{`[[1]]`, &li, "x[0] is not an integer"},
		{`["a",2]`, &ls, "x[1] is not a string"},
		{`[true]`, &m, "x is not a dict"},
		{`{"b":true,"a":1}`, &m, `x["a"] is not a boolean`},
		{`[1,`, &li, "x is not valid JSON"},
	}
	for _, tc := range cases {
		if got := typeErrorMessage("x", tc.text, tc.dst); got != tc.want {
			t.Errorf("%s into %T: %q, want %q", tc.text, tc.dst, got, tc.want)
		}
	}
	if e := errInvalid("x is not a list"); e.Code != "BAD_REQUEST" || e.Status != 400 || e.Extra != nil {
		t.Errorf("errInvalid = %+v, want a plain 400 BAD_REQUEST without var_name", e)
	}
}
