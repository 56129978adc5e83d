package refserver

// routesPush registers the push token and test notification endpoints.
func (s *Server) routesPush() {}
