package refserver

// routesMessages registers message flags, narrow matching and reports.
func (s *Server) routesMessages() {}
