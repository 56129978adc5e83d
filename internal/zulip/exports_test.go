package zulip

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
)

// TestCreateRealmExport: export_type is encoded as the server's feature level
// reads it, and the answer's id is returned.
func TestCreateRealmExport(t *testing.T) {
	for _, c := range []struct {
		typ  string
		fl   int
		want url.Values
	}{
		{ExportFullWithoutConsent, 449, url.Values{"export_type": {"full_without_consent"}}},
		{ExportFullWithConsent, 420, url.Values{"export_type": {"2"}}},
		{ExportPublic, 304, url.Values{"export_type": {"1"}}},
		{ExportPublic, 200, nil},
	} {
		env := setup(t)
		env.handle("/export/realm", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, http.MethodPost)
			testFormValues(t, r, c.want)
			writeJSON(w, http.StatusOK, `{"result":"success","msg":"","id":7}`)
		})
		id, err := env.client.CreateRealmExport(context.Background(), c.typ, c.fl)
		if err != nil || id != 7 {
			t.Errorf("FL%d %s: id %d, %v", c.fl, c.typ, id, err)
		}
	}
}

// TestCreateRealmExport_tooOld: a type the server's level lacks is refused
// before any request.
func TestCreateRealmExport_tooOld(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm", func(w http.ResponseWriter, _ *http.Request) {
		t.Error("request sent")
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	for _, c := range []struct {
		typ string
		fl  int
	}{{ExportFullWithoutConsent, 448}, {ExportFullWithConsent, 303}} {
		if _, err := env.client.CreateRealmExport(context.Background(), c.typ, c.fl); err == nil {
			t.Errorf("FL%d %s: no error", c.fl, c.typ)
		}
	}
}

// TestCreateRealmExport_error: Zulip's refusal is an *APIError with its words.
func TestCreateRealmExport_error(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Exceeded rate limit.","code":"BAD_REQUEST"}`)
	})
	_, err := env.client.CreateRealmExport(context.Background(), ExportPublic, 497)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Msg != "Exceeded rate limit." {
		t.Fatalf("err = %v", err)
	}
}

// TestListRealmExports: both encodings of export_type read as the FL449 names.
func TestListRealmExports(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		writeJSON(w, http.StatusOK, `{"result":"success","msg":"","exports":[
			{"id":1,"acting_user_id":8,"export_time":1.5,"deleted_timestamp":null,"failed_timestamp":null,"export_url":"https://z/e.tar.gz","pending":false,"export_type":2},
			{"id":2,"acting_user_id":8,"export_time":2.5,"deleted_timestamp":null,"failed_timestamp":3.5,"export_url":null,"pending":false,"export_type":"full_without_consent"},
			{"id":3,"acting_user_id":8,"export_time":2.5,"deleted_timestamp":null,"failed_timestamp":null,"export_url":null,"pending":true}]}`)
	})
	list, err := env.client.ListRealmExports(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 3 || list[0].ExportType != ExportFullWithConsent || !list[0].Succeeded() ||
		list[1].ExportType != ExportFullWithoutConsent || list[1].Succeeded() || list[1].FailedTimestamp == nil ||
		list[2].ExportType != "" || !list[2].Pending || list[2].Succeeded() {
		t.Errorf("list = %+v", list)
	}
}

// TestListRealmExports_error: a member's refusal is ErrUnauthorizedPrincipal.
func TestListRealmExports_error(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Must be an organization administrator","code":"UNAUTHORIZED_PRINCIPAL"}`)
	})
	if _, err := env.client.ListRealmExports(context.Background()); !errors.Is(err, ErrUnauthorizedPrincipal) {
		t.Fatalf("err = %v", err)
	}
}

// TestDeleteRealmExport: DELETE of the id's path; a refusal is an error.
func TestDeleteRealmExport(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm/7", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		writeJSON(w, http.StatusOK, `{"result":"success","msg":""}`)
	})
	env.handle("/export/realm/8", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Export still in progress","code":"BAD_REQUEST"}`)
	})
	if err := env.client.DeleteRealmExport(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	if err := env.client.DeleteRealmExport(context.Background(), 8); err == nil {
		t.Fatal("no error for a pending export")
	}
}

// TestListRealmExportConsents: the consents, with the newer visibility when sent.
func TestListRealmExportConsents(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm/consents", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodGet)
		writeJSON(w, http.StatusOK, `{"result":"success","msg":"","export_consents":[
			{"user_id":1,"consented":true,"email_address_visibility":1},{"user_id":2,"consented":false}]}`)
	})
	list, err := env.client.ListRealmExportConsents(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 || !list[0].Consented || list[0].EmailAddressVisibility == nil || list[1].EmailAddressVisibility != nil {
		t.Errorf("list = %+v", list)
	}
}

// TestListRealmExportConsents_error: an error answer is an *APIError.
func TestListRealmExportConsents_error(t *testing.T) {
	env := setup(t)
	env.handle("/export/realm/consents", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusBadRequest, `{"result":"error","msg":"Must be an organization administrator","code":"UNAUTHORIZED_PRINCIPAL"}`)
	})
	if _, err := env.client.ListRealmExportConsents(context.Background()); !errors.Is(err, ErrUnauthorizedPrincipal) {
		t.Fatalf("err = %v", err)
	}
}
