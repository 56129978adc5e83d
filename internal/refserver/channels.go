package refserver

// routesChannels registers the channel and topic endpoints.
func (s *Server) routesChannels() {}

// channelWire renders a channel (BasicChannel); isDefault is added when includeDefault.
func (s *Server) channelWire(ch *Channel, includeDefault bool) obj { return nil }
