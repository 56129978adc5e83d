package refserver

import (
	"net/http"
)

func init() { registerArea("server", area{routes: (*Server).routesServer}) }

// GET /server_settings (digest §9.7), POST /dev_fetch_api_key (§9.6) and
// POST /fetch_api_key: the unauthenticated endpoints.

// realmDescriptionHTML is the realm's rendered description.
const realmDescriptionHTML = "<p>The bundled reference server's organization, for tests and demos.</p>"

// routesServer registers /server_settings, /dev_fetch_api_key and /fetch_api_key.
func (s *Server) routesServer() {
	s.handle("GET /server_settings", authNone, s.serverSettings)
	// zproject/dev_urls.py adds the dev login endpoints (v1_api_mobile_patterns)
	// only when settings.DEVELOPMENT: on a production server the path is
	// unknown, answered like any other (Django's HTML 404 page).
	if !s.opts.Production {
		s.handle("POST /dev_fetch_api_key", authNone, s.devFetchAPIKey)
	}
	s.handle("POST /fetch_api_key", authNone, s.fetchAPIKey)
}

// realmURL is the organization's URL as the client reached it.
func realmURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// serverSettings is GET /server_settings.
func (s *Server) serverSettings(c *call) (obj, error) {
	r := c.realm()
	url := realmURL(c.r)
	out := obj{
		"authentication_methods": obj{
			"password":       true,
			"dev":            !s.opts.Production,
			"email":          true,
			"ldap":           false,
			"remoteuser":     false,
			"github":         false,
			"azuread":        false,
			"gitlab":         false,
			"apple":          false,
			"google":         false,
			"saml":           false,
			"openid connect": false,
		},
		"external_authentication_methods": []obj{},
		"zulip_feature_level":             s.opts.FeatureLevel,
		"zulip_version":                   s.opts.Version,
		"push_notifications_enabled":      true,
		"is_incompatible":                 false,
		"email_auth_enabled":              true,
		"require_email_format_usernames":  true,
		"realm_uri":                       url,
		"realm_name":                      r.Name,
		"realm_icon":                      r.iconURL(),
		"realm_description":               realmDescriptionHTML,
	}
	fl := s.opts.FeatureLevel
	if fl >= 88 {
		out["zulip_merge_base"] = s.opts.Version
	}
	if fl >= 116 {
		out["realm_web_public_access_enabled"] = s.webPublicAccessEnabled()
	}
	if fl >= 257 {
		out["realm_url"] = url
	}
	return out, nil
}

// errAuthFailed is AuthenticationFailedError.
func errAuthFailed() *apiError {
	return errCode(http.StatusUnauthorized, "AUTHENTICATION_FAILED", "Your username or password is incorrect", nil)
}

// apiKeyAnswer is ApiKeyResponse.
func (s *Server) apiKeyAnswer(u *User) obj {
	out := obj{"api_key": u.APIKey, "email": u.Email}
	if s.opts.FeatureLevel >= 171 {
		out["user_id"] = u.ID
	}
	return out
}

// loginUser finds the active account for a login e-mail, or the error Zulip
// gives (deactivated organization, deactivated user, unknown user).
func (s *Server) loginUser(c *call, username string) (*User, error) {
	r := c.realm()
	u := r.userByEmail(username)
	if u == nil {
		return nil, errAuthFailed()
	}
	if r.Deactivated {
		return nil, errCode(http.StatusUnauthorized, "REALM_DEACTIVATED", "This organization has been deactivated", nil)
	}
	if !u.IsActive {
		return nil, errCode(http.StatusUnauthorized, "USER_DEACTIVATED", "Account is deactivated", nil)
	}
	return u, nil
}

// devFetchAPIKey is POST /dev_fetch_api_key: any account's key, without a
// password, on a development server only.
func (s *Server) devFetchAPIKey(c *call) (obj, error) {
	username, err := c.reqString("username")
	if err != nil {
		return nil, err
	}
	if !validEmail(username) {
		return nil, errBadRequest("Enter a valid email address.")
	}
	u, err := s.loginUser(c, username)
	if err != nil {
		return nil, err
	}
	return s.apiKeyAnswer(u), nil
}

// fetchAPIKey is POST /fetch_api_key: password login. As in Zulip's
// EmailAuthBackend, a deactivated account is reported before the password is
// checked; bots have no password and cannot log in.
func (s *Server) fetchAPIKey(c *call) (obj, error) {
	username, err := c.reqString("username")
	if err != nil {
		return nil, err
	}
	password, err := c.reqString("password")
	if err != nil {
		return nil, err
	}
	u, err := s.loginUser(c, username)
	if err != nil {
		return nil, err
	}
	if u.IsBot || u.Password == "" || u.Password != password {
		return nil, errAuthFailed()
	}
	return s.apiKeyAnswer(u), nil
}
