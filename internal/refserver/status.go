package refserver

// routesStatus registers the user status endpoints.
func (s *Server) routesStatus() {}

// userStatusWire renders a user status ({} when none).
func (s *Server) userStatusWire(u *User) obj { return nil }
