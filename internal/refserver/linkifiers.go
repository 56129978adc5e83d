package refserver

// routesLinkifiers registers the linkifier endpoints.
func (s *Server) routesLinkifiers() {}

// linkifiersWire renders the ordered linkifier list.
func (s *Server) linkifiersWire() []obj { return nil }
