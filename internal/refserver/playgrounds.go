package refserver

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Code playgrounds (POST /realm/playgrounds, DELETE
// /realm/playgrounds/{playground_id}, register's realm_playgrounds and the
// realm_playgrounds event), after newest Zulip's zerver/views/realm_playgrounds.py
// and zerver/models/realm_playgrounds.py (RealmPlayground.clean: "code" is
// the URL template's only variable; unique per language and name).

func init() {
	registerArea("playgrounds", area{routes: (*Server).routesPlaygrounds,
		sections: map[string]registerSection{"realm_playgrounds": (*Server).registerPlaygrounds}})
}

// Playground is a code playground.
type Playground struct {
	ID               int    `json:"id"`
	Name             string `json:"name"`
	PygmentsLanguage string `json:"pygments_language"`
	URLTemplate      string `json:"url_template"`
}

// maxPygmentsLanguageLength is RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH.
const maxPygmentsLanguageLength = 40

// pygmentsLanguage is check_pygments_language's character set.
var pygmentsLanguage = regexp.MustCompile(`^[ a-zA-Z0-9_+\-./#]*$`)

// routesPlaygrounds registers the endpoints.
func (s *Server) routesPlaygrounds() {
	s.handle("POST /realm/playgrounds", authUser, s.withPlaygroundEvents(s.addPlayground))
	s.handle("DELETE /realm/playgrounds/{playground_id}", authUser, s.withPlaygroundEvents(s.deletePlayground))
}

// playgroundsWire lists the playgrounds as the API does.
func (r *Realm) playgroundsWire() []obj {
	out := []obj{}
	for _, p := range r.Playgrounds {
		out = append(out, obj{"id": p.ID, "name": p.Name, "pygments_language": p.PygmentsLanguage, "url_template": p.URLTemplate})
	}
	return out
}

// registerPlaygrounds is register's realm_playgrounds section.
func (s *Server) registerPlaygrounds(_ *registerRequest, out obj) {
	out["realm_playgrounds"] = s.realm.playgroundsWire()
}

// addPlayground is add_realm_playground with check_add_realm_playground.
func (s *Server) addPlayground(c *call) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	name, err := c.reqString("name")
	if err != nil {
		return nil, err
	}
	tmpl, err := c.reqString("url_template")
	if err != nil {
		return nil, err
	}
	lang, err := c.reqString("pygments_language")
	if err != nil {
		return nil, err
	}
	if len([]rune(lang)) > maxPygmentsLanguageLength {
		return nil, errInvalid("pygments_language is too long (limit: " + strconv.Itoa(maxPygmentsLanguageLength) + " characters)")
	}
	if !pygmentsLanguage.MatchString(lang) {
		return nil, errBadRequest("Invalid characters in pygments language")
	}
	name, lang, tmpl = strings.TrimSpace(name), strings.TrimSpace(lang), strings.TrimSpace(tmpl)
	vars, ok := urlTemplateVars(tmpl)
	switch {
	case !ok:
		return nil, errBadRequest("Invalid URL template.")
	case !slices.Contains(vars, "code"):
		return nil, errBadRequest(`Missing the required variable "code" in the URL template`)
	case len(slices.Compact(slices.Sorted(slices.Values(vars)))) != 1:
		return nil, errBadRequest(`"code" should be the only variable present in the URL template`)
	}
	r := c.realm()
	for _, p := range r.Playgrounds {
		if p.PygmentsLanguage == lang && p.Name == name {
			return nil, errBadRequest("Realm playground with this Realm, Pygments language and Name already exists.")
		}
	}
	p := &Playground{ID: r.newID("playground"), Name: name, PygmentsLanguage: lang, URLTemplate: tmpl}
	r.Playgrounds = append(r.Playgrounds, p)
	return obj{"id": p.ID}, nil
}

// deletePlayground is delete_realm_playground.
func (s *Server) deletePlayground(c *call) (obj, error) {
	if !c.user.IsAdmin() {
		return nil, errPrincipal("administrator")
	}
	id, err := c.pathInt("playground_id")
	if err != nil {
		return nil, err
	}
	r := c.realm()
	i := slices.IndexFunc(r.Playgrounds, func(p *Playground) bool { return p.ID == id })
	if i < 0 {
		return nil, errBadRequest("Invalid playground")
	}
	r.Playgrounds = slices.Delete(r.Playgrounds, i, i+1)
	return obj{}, nil
}

// withPlaygroundEvents sends the realm_playgrounds event after a change.
func (s *Server) withPlaygroundEvents(h handlerFunc) handlerFunc {
	return withEvents(h, func(c *call, _ obj) {
		s.emit(obj{"type": "realm_playgrounds", "realm_playgrounds": s.realm.playgroundsWire()}, nil)
	})
}
