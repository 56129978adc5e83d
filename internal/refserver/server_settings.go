package refserver

// routesServer registers /server_settings and /dev_fetch_api_key.
func (s *Server) routesServer() {}
