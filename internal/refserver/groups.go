package refserver

// routesGroups registers the user group endpoints.
func (s *Server) routesGroups() {}

// groupsWire renders the user groups.
func (s *Server) groupsWire(includeDeactivated bool) []obj { return nil }
