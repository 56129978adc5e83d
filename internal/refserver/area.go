package refserver

import "sort"

// An area is one part of Zulip's API that the server models: linkifiers,
// users, channels, ... Its file(s) hold its handlers, its routes and the
// register sections it serves, and register it with registerArea from an init
// function; the core (routes, register) only iterates the areas. Adding an area
// is adding its files. (The realm's state stays one struct, Realm in model.go,
// because it is persisted as one JSON document; seed.go names the seeded ids
// every area and test relies on.)
type area struct {
	// seed adds the area's part of the seeded realm (may be nil); areas seed
	// in seedStep order (then name), so an area can refer to what an earlier
	// step seeded (users before groups before channels before messages).
	seed     func(r *Realm, base, day int64)
	seedStep int
	// routes registers the area's routes with s.handle.
	routes func(s *Server)
	// sections fill register's answer, by the fetch type each serves.
	sections map[string]registerSection
}

// registerSection fills register's answer for one fetch type; it runs with the
// lock held, after the queue was made.
type registerSection func(s *Server, rr *registerRequest, out obj)

// registerRequest is what register's sections need to know of the request.
type registerRequest struct {
	c              *call
	fl             int
	capability     func(name string) bool
	clientGravatar bool
}

// areas holds the registered areas by name.
var areas = map[string]area{}

// registerArea adds an area; each name once.
func registerArea(name string, a area) {
	if _, dup := areas[name]; dup {
		panic("refserver: area " + name + " registered twice")
	}
	areas[name] = a
}

// areaNames lists the areas in name order, so that every run registers routes
// and fills register's answer in the same order.
func areaNames() []string {
	names := make([]string, 0, len(areas))
	for name := range areas {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// areasBySeedStep lists the areas in seeding order.
func areasBySeedStep() []area {
	names := areaNames()
	sort.SliceStable(names, func(i, j int) bool { return areas[names[i]].seedStep < areas[names[j]].seedStep })
	out := make([]area, len(names))
	for i, name := range names {
		out[i] = areas[name]
	}
	return out
}

// routes registers every area's routes.
func (s *Server) routes() {
	for _, name := range areaNames() {
		areas[name].routes(s)
	}
}

// fetchSection is one fetch type and the section that serves it.
type fetchSection struct {
	fetchType string
	fill      registerSection
}

// registerSections lists every area's register sections, in area then fetch
// type order.
func registerSections() []fetchSection {
	var out []fetchSection
	for _, name := range areaNames() {
		types := make([]string, 0, len(areas[name].sections))
		for t := range areas[name].sections {
			types = append(types, t)
		}
		sort.Strings(types)
		for _, t := range types {
			out = append(out, fetchSection{t, areas[name].sections[t]})
		}
	}
	return out
}

// registerFetchTypes are the fetch types the server computes: what register
// answers when neither event_types nor fetch_event_types narrows it.
func registerFetchTypes() []string {
	var out []string
	for _, sec := range registerSections() {
		out = append(out, sec.fetchType)
	}
	return out
}
