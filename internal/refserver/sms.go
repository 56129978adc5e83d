package refserver

import "github.com/zulip-terraform/terraform-provider-zulip/internal/refserver/smsserver"

func init() { registerArea("sms", area{routes: (*Server).routesSMS}) }

// routesSMS mounts the SMS conversations API (package smsserver) under /a1/,
// with the server's SMS credentials and clock. Its state is persisted with the
// realm (Realm.SMS): the SMS server reports every change through OnChange
// (see smsChanged) before it answers, and persistLocked snapshots it.
func (s *Server) routesSMS() {
	s.mux.Handle("/a1/", s.ext.sms)
}

// SMS returns the SMS conversations API server, for tests (SimulateReply,
// Conversations, ...). Its changes are persisted through the server's lock, so
// do not call its methods from inside Do.
func (s *Server) SMS() *smsserver.Server { return s.ext.sms }
