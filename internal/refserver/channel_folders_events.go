package refserver

import "slices"

// The channel_folder events (add, update, reorder; FL389, reorder FL414),
// after newest Zulip's do_create_channel_folder, do_change_channel_folder_*
// and try_reorder_realm_channel_folders: every user of the organization gets
// them, from a comparison of the folders before and after the handler.

// withChannelFolderEvents wraps a folder endpoint with its events.
func (s *Server) withChannelFolderEvents(h handlerFunc) handlerFunc {
	return func(c *call) (obj, error) {
		before := map[int]ChannelFolder{}
		var order []int
		for _, f := range s.realm.ChannelFolders {
			before[f.ID] = *f
			order = append(order, f.ID)
		}
		payload, err := h(c)
		if err != nil {
			return payload, err
		}
		var after []int
		for i, f := range s.realm.ChannelFolders {
			after = append(after, f.ID)
			was, existed := before[f.ID]
			if !existed {
				s.emit(obj{"type": "channel_folder", "op": "add", "channel_folder": s.channelFolderWire(f, i)}, nil)
				continue
			}
			data := obj{}
			if was.Name != f.Name {
				data["name"] = f.Name
			}
			if was.Description != f.Description {
				data["description"] = f.Description
				data["rendered_description"] = renderChatMarkdown(s.realm, f.Description)
			}
			if was.IsArchived != f.IsArchived {
				data["is_archived"] = f.IsArchived
			}
			if len(data) > 0 {
				s.emit(obj{"type": "channel_folder", "op": "update", "channel_folder_id": f.ID, "data": data}, nil)
			}
		}
		// A new folder goes last, which is no reorder.
		if len(after) == len(order) && !slices.Equal(after, order) {
			s.emit(obj{"type": "channel_folder", "op": "reorder", "order": after}, nil)
		}
		return payload, nil
	}
}
