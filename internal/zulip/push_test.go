package zulip

import (
	"context"
	"net/http"
	"net/url"
	"sync/atomic"
	"testing"
)

func TestAddAPNsToken(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/apns_device_token", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodPost)
		testFormValues(t, r, url.Values{"token": {"c0ffee"}, "appid": {"org.zulip.Zulip"}})
		success(w, "")
	})
	if err := env.client.AddAPNsToken(context.Background(), "c0ffee", "org.zulip.Zulip"); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveAPNsToken(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/apns_device_token", func(w http.ResponseWriter, r *http.Request) {
		testMethod(t, r, http.MethodDelete)
		testFormValues(t, r, url.Values{"token": {"c0ffee"}})
		success(w, "")
	})
	if err := env.client.RemoveAPNsToken(context.Background(), "c0ffee"); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveAPNsToken_gone(t *testing.T) {
	env := setup(t)
	env.handle("/users/me/apns_device_token", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Token does not exist","code":"BAD_REQUEST"}`)
	})
	if err := env.client.RemoveAPNsToken(context.Background(), "c0ffee"); !IsNotFound(err) {
		t.Errorf("IsNotFound(%v) = false", err)
	}
}

func TestSendTestNotification(t *testing.T) {
	for _, token := range []string{"111222", ""} {
		env := setup(t)
		env.handle("/mobile_push/test_notification", func(w http.ResponseWriter, r *http.Request) {
			testMethod(t, r, http.MethodPost)
			want := url.Values{"token": {token}}
			if token == "" {
				want = nil
			}
			testFormValues(t, r, want)
			success(w, "")
		})
		if err := env.client.SendTestNotification(context.Background(), token); err != nil {
			t.Fatal(err)
		}
	}
}

func TestSendTestNotification_invalidToken(t *testing.T) {
	env := setup(t)
	env.handle("/mobile_push/test_notification", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 400, `{"result":"error","msg":"Device not recognized by the push bouncer","code":"INVALID_REMOTE_PUSH_DEVICE_TOKEN"}`)
	})
	err := env.client.SendTestNotification(context.Background(), "x")
	wantAPIError(t, err, 400, CodeInvalidRemotePushDeviceToken)
}

func TestSendE2EETestNotification(t *testing.T) {
	tests := []struct {
		name string
		req  E2EETestNotificationRequest
		want url.Values
	}{
		{"device id", E2EETestNotificationRequest{DeviceID: ptr(int64(5))}, url.Values{"device_id": {"5"}}},
		{"push account id", E2EETestNotificationRequest{PushAccountID: ptr(int64(111222))}, url.Values{"push_account_id": {"111222"}}},
		{"all devices", E2EETestNotificationRequest{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := setup(t)
			env.handle("/mobile_push/e2ee/test_notification", func(w http.ResponseWriter, r *http.Request) {
				testMethod(t, r, http.MethodPost)
				testFormValues(t, r, tt.want)
				success(w, "")
			})
			if err := env.client.SendE2EETestNotification(context.Background(), tt.req); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSendE2EETestNotification_errors(t *testing.T) {
	tests := []struct {
		status int
		code   string
	}{
		{400, CodeNoActivePushDevice},
		{403, CodeAdminActionRequired},
		{502, CodeFailedToConnectBouncer},
		{502, CodeInternalServerErrorOnBouncer},
	}
	for _, tt := range tests {
		env := setup(t)
		var count atomic.Int32
		env.handle("/mobile_push/e2ee/test_notification", func(w http.ResponseWriter, r *http.Request) {
			count.Add(1)
			writeJSON(w, tt.status, `{"result":"error","msg":"push problem","code":"`+tt.code+`"}`)
		})
		err := env.client.SendE2EETestNotification(context.Background(), E2EETestNotificationRequest{})
		wantAPIError(t, err, tt.status, tt.code)
		// A notification is an action: a 502 must not send it twice.
		if count.Load() != 1 {
			t.Errorf("%s: %d requests", tt.code, count.Load())
		}
	}
}
