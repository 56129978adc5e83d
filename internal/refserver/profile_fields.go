package refserver

// routesProfileFields registers the custom profile field and profile data endpoints.
func (s *Server) routesProfileFields() {}

// profileFieldsWire renders the custom profile fields, sorted by order.
func (s *Server) profileFieldsWire() []obj { return nil }
