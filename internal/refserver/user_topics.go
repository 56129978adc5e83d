package refserver

// routesUserTopics registers POST /user_topics.
func (s *Server) routesUserTopics() {}

// userTopicsWire renders the user topics of a user.
func (s *Server) userTopicsWire(userID int) []obj { return nil }
