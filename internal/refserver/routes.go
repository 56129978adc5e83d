package refserver

// routes registers every API route; each area registers its own in its file.
func (s *Server) routes() {
	// core: server_settings, dev_fetch_api_key, register/events, users, own account.
	s.routesServer()
	s.routesEvents()
	s.routesUsers()
	// configuration: linkifiers, saved snippets, realm domains, user topics, profile fields.
	s.routesLinkifiers()
	s.routesSnippets()
	s.routesDomains()
	s.routesUserTopics()
	s.routesProfileFields()
	// chat: channels and topics, user groups, user status, messages, push.
	s.routesChannels()
	s.routesGroups()
	s.routesStatus()
	s.routesMessages()
	s.routesPush()
	// the SMS conversations API under /a1/.
	s.routesSMS()
}
