package refserver

// routesUsers registers the /users endpoints.
func (s *Server) routesUsers() {}

// userWire renders target as viewer may see it (digest §4.3).
func (s *Server) userWire(viewer, target *User, clientGravatar, includeProfile bool) obj { return nil }
