package refserver

// routesDomains registers the realm domain endpoints.
func (s *Server) routesDomains() {}

// domainsWire renders the realm domains.
func (s *Server) domainsWire() []obj { return nil }
