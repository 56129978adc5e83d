package refserver

import (
	"crypto/md5" //nolint:gosec // Gravatar's hash, as Zulip computes it
	"crypto/sha256"
	"encoding/hex"
	"mime"
	"strconv"
	"strings"

	"github.com/zulip-terraform/terraform-provider-zulip/internal/imagetype"
)

// The organization's icon and logos (POST and DELETE /realm/icon, POST and
// DELETE /realm/logo with night, register's realm_icon_url,
// realm_icon_source, realm_logo_url, realm_logo_source, realm_night_logo_url,
// realm_night_logo_source, and the realm update_dict events icon, logo and
// night_logo), after Zulip's zerver/views/realm_icon.py (upload_icon,
// delete_icon_backend), zerver/views/realm_logo.py (upload_logo,
// delete_logo_backend), zerver/actions/realm_icon.py and realm_logo.py
// (do_change_icon_source, do_change_logo_source: each change bumps the
// version in the URL), zerver/lib/realm_icon.py and realm_logo.py (the
// URLs). What Zulip serves at those URLs is not the uploaded file: the icon
// is resized to a 100×100 PNG (resize_avatar) and a logo to a PNG of at most
// 800×100 (resize_logo), so a client cannot compare the served file with its
// source; it can compare the source and the version. This server does not
// serve the files. Choices: the image is recognized by its signature, as for
// custom emoji; MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB have Zulip's
// default, 5; the limited plan (plan_type 2) refuses logos
// (ensure_not_on_limited_plan).

func init() {
	registerArea("branding", area{routes: (*Server).routesBranding,
		sections: map[string]registerSection{"realm": (*Server).registerBranding}})
}

// Branding is the organization's icon and logos: a source ("G" Gravatar or
// "U" uploaded for the icon; "D" default or "U" for logos) and a version.
type Branding struct {
	IconSource       string `json:"icon_source,omitempty"`
	IconVersion      int    `json:"icon_version,omitempty"`
	LogoSource       string `json:"logo_source,omitempty"`
	LogoVersion      int    `json:"logo_version,omitempty"`
	NightLogoSource  string `json:"night_logo_source,omitempty"`
	NightLogoVersion int    `json:"night_logo_version,omitempty"`
	// IconSHA256 and the like are the uploaded files' hashes, for tests.
	IconSHA256      string `json:"icon_sha256,omitempty"`
	LogoSHA256      string `json:"logo_sha256,omitempty"`
	NightLogoSHA256 string `json:"night_logo_sha256,omitempty"`
}

// maxBrandingFileSizeMiB is MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB.
const maxBrandingFileSizeMiB = 5

// defaultLogoURL is the logo of an organization that uploaded none.
const defaultLogoURL = "/static/images/logo/zulip-org-logo.svg?version=0"

// routesBranding registers the endpoints.
func (s *Server) routesBranding() {
	s.handle("POST /realm/icon", authUser, s.uploadIcon)
	s.handle("DELETE /realm/icon", authUser, s.deleteIcon)
	s.handle("POST /realm/logo", authUser, s.uploadLogo)
	s.handle("DELETE /realm/logo", authUser, s.deleteLogo)
}

// branding is the realm's branding, made on first use.
func (r *Realm) branding() *Branding {
	if r.Branding == nil {
		r.Branding = &Branding{IconSource: "G", IconVersion: 1, LogoSource: "D", LogoVersion: 1, NightLogoSource: "D", NightLogoVersion: 1}
	}
	return r.Branding
}

// iconURL is realm_icon_url: the uploaded icon with its version, else the
// realm's Gravatar identicon (ENABLE_GRAVATAR, Zulip's default).
func (r *Realm) iconURL() string {
	b := r.branding()
	if b.IconSource == "U" {
		return "/user_avatars/" + strconv.Itoa(realmID) + "/realm/icon.png?version=" + strconv.Itoa(b.IconVersion)
	}
	sum := md5.Sum([]byte(strings.ToLower(realmStringID(r)))) //nolint:gosec // Gravatar's hash
	return "https://secure.gravatar.com/avatar/" + hex.EncodeToString(sum[:]) + "?d=identicon"
}

// logoURL is get_realm_logo_url: the uploaded (night) logo with its
// version, else Zulip's default logo.
func (r *Realm) logoURL(night bool) string {
	b := r.branding()
	source, version, file := b.LogoSource, b.LogoVersion, "logo.png"
	if night {
		source, version, file = b.NightLogoSource, b.NightLogoVersion, "night_logo.png"
	}
	if source != "U" {
		return defaultLogoURL
	}
	return "/user_avatars/" + strconv.Itoa(realmID) + "/realm/" + file + "?version=" + strconv.Itoa(version)
}

// logoData is get_realm_logo_data.
func (r *Realm) logoData(night bool) obj {
	b := r.branding()
	if night {
		return obj{"night_logo_url": r.logoURL(true), "night_logo_source": b.NightLogoSource}
	}
	return obj{"logo_url": r.logoURL(false), "logo_source": b.LogoSource}
}

// registerBranding adds the icon and logos to register's realm section.
func (s *Server) registerBranding(_ *registerRequest, out obj) {
	r := s.realm
	b := r.branding()
	out["realm_icon_url"], out["realm_icon_source"] = r.iconURL(), b.IconSource
	out["realm_logo_url"], out["realm_logo_source"] = r.logoURL(false), b.LogoSource
	out["realm_night_logo_url"], out["realm_night_logo_source"] = r.logoURL(true), b.NightLogoSource
}

// brandingImage checks the one uploaded image (the views' checks, then
// upload_icon_image / upload_logo_image's format checks) and returns its hash.
func (c *call) brandingImage(what string) (string, error) {
	if len(c.files) != 1 {
		return "", errBadRequest("You must upload exactly one %s.", what)
	}
	f := c.files[0]
	if len(f.Data) > maxBrandingFileSizeMiB<<20 {
		return "", errBadRequest("Uploaded file is larger than the allowed limit of %d MiB", maxBrandingFileSizeMiB)
	}
	ct, _, _ := mime.ParseMediaType(f.ContentType)
	if _, ok := emojiImageTypes[ct]; !ok {
		return "", errCode(400, "BAD_IMAGE", "Invalid image format", nil)
	}
	if imagetype.Sniff(f.Data) != ct {
		return "", errCode(400, "BAD_IMAGE", "Could not decode image; did you upload an image file?", nil)
	}
	sum := sha256.Sum256(f.Data)
	return hex.EncodeToString(sum[:]), nil
}

// emitIcon is do_change_icon_source's event.
func (s *Server) emitIcon() {
	r := s.realm
	s.emit(obj{"type": "realm", "op": "update_dict", "property": "icon",
		"data": obj{"icon_url": r.iconURL(), "icon_source": r.branding().IconSource}}, nil)
}

// uploadIcon is upload_icon.
func (s *Server) uploadIcon(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	sum, err := c.brandingImage("icon")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	b := r.branding()
	b.IconSource, b.IconSHA256 = "U", sum
	b.IconVersion++
	s.emitIcon()
	return obj{"icon_url": r.iconURL()}, nil
}

// deleteIcon is delete_icon_backend: back to the Gravatar identicon.
func (s *Server) deleteIcon(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	r := c.realm()
	b := r.branding()
	b.IconSource, b.IconSHA256 = "G", ""
	b.IconVersion++
	s.emitIcon()
	return obj{"icon_url": r.iconURL()}, nil
}

// nightParam reads the required JSON boolean night.
func (c *call) nightParam() (bool, error) {
	var night bool
	err := c.reqJSON("night", &night)
	return night, err
}

// setLogo is do_change_logo_source.
func (s *Server) setLogo(night bool, source, sum string) {
	r := s.realm
	b := r.branding()
	if night {
		b.NightLogoSource, b.NightLogoSHA256 = source, sum
		b.NightLogoVersion++
	} else {
		b.LogoSource, b.LogoSHA256 = source, sum
		b.LogoVersion++
	}
	property := "logo"
	if night {
		property = "night_logo"
	}
	s.emit(obj{"type": "realm", "op": "update_dict", "property": property, "data": r.logoData(night)}, nil)
}

// checkNotLimitedPlan is ensure_not_on_limited_plan.
func (r *Realm) checkNotLimitedPlan() error {
	if r.PlanType == 2 {
		return errPlanLimited()
	}
	return nil
}

// uploadLogo is upload_logo.
func (s *Server) uploadLogo(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	night, err := c.nightParam()
	if err != nil {
		return nil, err
	}
	if err := c.realm().checkNotLimitedPlan(); err != nil {
		return nil, err
	}
	sum, err := c.brandingImage("logo")
	if err != nil {
		return nil, err
	}
	s.setLogo(night, "U", sum)
	return obj{}, nil
}

// deleteLogo is delete_logo_backend: back to the default logo.
func (s *Server) deleteLogo(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	night, err := c.nightParam()
	if err != nil {
		return nil, err
	}
	s.setLogo(night, "D", "")
	return obj{}, nil
}
