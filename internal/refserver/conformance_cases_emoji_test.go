package refserver_test

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver"

func init() { confAreas["emoji"] = confCasesEmoji }

// confPNG is the start of a PNG file: the signature the server checks.
const confPNG = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"

// confUpload is st with files (content type and data each) in a multipart body.
func confUpload(st confStep, files ...[2]string) confStep {
	st.files = files
	return st
}

// confCasesEmoji are the conformance requests of custom emoji.
func confCasesEmoji(add func(confGroup)) {
	png := [2]string{"image/png", confPNG}
	add(confGroup{op: "get-custom-emoji", steps: []confStep{
		confOK("with a deactivated one", "get-custom-emoji", confGuest, confGET, "/realm/emoji", nil),
		confUpload(confOK("after an animated upload", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/party", nil),
			[2]string{"image/gif", "GIF89a..NETSCAPE2.0.."}),
		confOK("animated", "get-custom-emoji", confMember, confGET, "/realm/emoji", nil),
	}})
	add(confGroup{op: "upload-custom-emoji", steps: []confStep{
		confUpload(confOK("upload", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/ship_it", nil), png),
		confUpload(confOK("a deactivated name", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/old_logo", nil), png),
		confUpload(confBad("taken", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/ship_it", nil, 400, "BAD_REQUEST"), png),
		confUpload(confBad("bad name", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/Ship", nil, 400, "BAD_REQUEST"), png),
		confBad("no file", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/nofile", nil, 400, "BAD_REQUEST"),
		confUpload(confBad("guest", "upload-custom-emoji", confGuest, confPOST, "/realm/emoji/guest", nil, 400, "BAD_REQUEST"), png),
		confUpload(confBad("not an image", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/text", nil, 400, "BAD_IMAGE"),
			[2]string{"text/plain", "hello"}),
		confBefore(confUpload(confBad("not allowed", "upload-custom-emoji", confMember, confPOST, "/realm/emoji/later", nil, 400, "BAD_REQUEST"), png),
			func(s *refserver.Server) {
				s.Do(func(r *refserver.Realm) {
					r.Settings.GroupSettings["can_add_custom_emoji_group"] = refserver.GroupSetting{GroupID: refserver.GroupAdministrators}
				})
			}),
	}})
	add(confGroup{op: "deactivate-custom-emoji", steps: []confStep{
		confBad("not the author", "deactivate-custom-emoji", confMember, confDELETE, "/realm/emoji/green_tick", nil, 400, "BAD_REQUEST"),
		confOK("an administrator", "deactivate-custom-emoji", confAdmin, confDELETE, "/realm/emoji/green_tick", nil),
		confBad("deactivated already", "deactivate-custom-emoji", confAdmin, confDELETE, "/realm/emoji/green_tick", nil, 404, "BAD_REQUEST"),
		confBad("unknown", "deactivate-custom-emoji", confAdmin, confDELETE, "/realm/emoji/nope", nil, 404, "BAD_REQUEST"),
	}})
}
