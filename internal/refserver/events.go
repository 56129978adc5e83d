package refserver

// routesEvents registers /register and /events.
func (s *Server) routesEvents() {}
