package refserver

// routesSnippets registers the saved snippet endpoints.
func (s *Server) routesSnippets() {}

// snippetsWire renders the saved snippets of a user.
func (s *Server) snippetsWire(userID int) []obj { return nil }
