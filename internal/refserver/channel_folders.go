package refserver

import (
	"slices"
	"strings"
)

// Channel folders (FL389; order FL414), after newest Zulip's
// zerver/views/channel_folders.py and zerver/lib/channel_folders.py.

func init() {
	registerArea("channel_folders", area{routes: (*Server).routesChannelFolders,
		sections: map[string]registerSection{"channel_folders": (*Server).registerChannelFolders}})
}

// Feature levels of channel folders.
const (
	channelFoldersFL     = 389
	channelFolderOrderFL = 414
)

// maxFolderNameLength and maxFolderDescriptionLength are ChannelFolder's
// MAX_NAME_LENGTH and MAX_DESCRIPTION_LENGTH (this server's reading: the same
// as a channel's).
const (
	maxFolderNameLength        = 60
	maxFolderDescriptionLength = 1024
)

// ChannelFolder is a channel folder. Realm.ChannelFolders keeps them in
// display order.
type ChannelFolder struct {
	ID          int    `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	DateCreated int64  `json:"date_created"`
	CreatorID   int    `json:"creator_id,omitempty"`
	IsArchived  bool   `json:"is_archived"`
}

// routesChannelFolders registers the folder endpoints at the advertised level.
func (s *Server) routesChannelFolders() {
	fl := s.opts.FeatureLevel
	if fl < channelFoldersFL {
		return
	}
	s.handle("POST /channel_folders/create", authUser, s.withChannelFolderEvents(s.createChannelFolder))
	s.handle("GET /channel_folders", authUser, s.getChannelFolders)
	s.handle("PATCH /channel_folders/{channel_folder_id}", authUser, s.withChannelFolderEvents(s.updateChannelFolder))
	if fl >= channelFolderOrderFL {
		s.handle("PATCH /channel_folders", authUser, s.withChannelFolderEvents(s.reorderChannelFolders))
	}
}

// channelFolderWire renders a folder as the API does.
func (s *Server) channelFolderWire(f *ChannelFolder, order int) obj {
	o := obj{"id": f.ID, "name": f.Name, "description": f.Description,
		"rendered_description": renderChatMarkdown(s.realm, f.Description), "date_created": f.DateCreated,
		"creator_id": nil, "is_archived": f.IsArchived}
	if f.CreatorID != 0 {
		o["creator_id"] = f.CreatorID
	}
	if s.opts.FeatureLevel >= channelFolderOrderFL {
		o["order"] = order
	}
	return o
}

// channelFoldersWire lists the folders by id, as get_channel_folders_in_realm does.
func (s *Server) channelFoldersWire(includeArchived bool) []obj {
	folders := slices.Clone(s.realm.ChannelFolders)
	slices.SortFunc(folders, func(a, b *ChannelFolder) int { return a.ID - b.ID })
	out := []obj{}
	for _, f := range folders {
		if !f.IsArchived || includeArchived {
			out = append(out, s.channelFolderWire(f, slices.Index(s.realm.ChannelFolders, f)))
		}
	}
	return out
}

// folder returns a folder by id.
func (r *Realm) folder(id int) *ChannelFolder {
	for _, f := range r.ChannelFolders {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// checkFolderName is check_channel_folder_name: names are unique
// case-insensitively, archived folders included.
func (r *Realm) checkFolderName(name string) error {
	if strings.TrimSpace(name) == "" {
		return errBadRequest("Channel folder name can't be empty.")
	}
	if len([]rune(name)) > maxFolderNameLength {
		return errInvalid("name is too long (limit: 60 characters)")
	}
	for i, c := range []rune(name) {
		if !isPrintable(c) {
			return errBadRequest("Invalid character in channel folder name, at position %d.", i+1)
		}
	}
	for _, f := range r.ChannelFolders {
		if strings.EqualFold(f.Name, name) {
			return errBadRequest("Channel folder name already in use")
		}
	}
	return nil
}

// createChannelFolder is create_channel_folder (administrators).
func (s *Server) createChannelFolder(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	description, err := c.reqString("description")
	if err != nil {
		return nil, err
	}
	name, err := c.reqString("name")
	if err != nil {
		return nil, err
	}
	if len([]rune(description)) > maxFolderDescriptionLength {
		return nil, errInvalid("description is too long (limit: 1024 characters)")
	}
	r := c.realm()
	if err := r.checkFolderName(name); err != nil {
		return nil, err
	}
	f := &ChannelFolder{ID: r.newID("channel_folder"), Name: name, Description: description,
		DateCreated: s.now().Unix(), CreatorID: c.user.ID}
	r.ChannelFolders = append(r.ChannelFolders, f)
	return obj{"channel_folder_id": f.ID}, nil
}

// getChannelFolders is get_channel_folders.
func (s *Server) getChannelFolders(c *call) (obj, error) {
	archived, err := c.optBool("include_archived", false)
	if err != nil {
		return nil, err
	}
	return obj{"channel_folders": s.channelFoldersWire(archived)}, nil
}

// updateChannelFolder is update_channel_folder (administrators): archiving
// is refused while a channel is in the folder.
func (s *Server) updateChannelFolder(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	id, err := c.pathInt("channel_folder_id")
	if err != nil {
		return nil, err
	}
	var archived *bool
	if c.params.Has("is_archived") {
		b, err := c.optBool("is_archived", false)
		if err != nil {
			return nil, err
		}
		archived = &b
	}
	description, hasDescription := c.optString("description")
	name, hasName := c.optString("name")
	r := c.realm()
	f := r.folder(id)
	if f == nil {
		return nil, errBadRequest("Invalid channel folder ID")
	}
	if hasName && name != f.Name {
		if err := r.checkFolderName(name); err != nil {
			return nil, err
		}
	}
	if archived != nil && *archived && !f.IsArchived {
		for _, ch := range r.Channels {
			if ch.FolderID != nil && *ch.FolderID == f.ID {
				return nil, errBadRequest("You need to remove all the channels from this folder to archive it.")
			}
		}
	}
	if hasName {
		f.Name = name
	}
	if hasDescription {
		f.Description = description
	}
	if archived != nil {
		f.IsArchived = *archived
	}
	return obj{}, nil
}

// reorderChannelFolders is reorder_realm_channel_folders: order lists every
// folder's id, archived ones included.
func (s *Server) reorderChannelFolders(c *call) (obj, error) {
	if err := c.requireAdmin(); err != nil {
		return nil, err
	}
	var order []int
	if err := c.reqJSON("order", &order); err != nil {
		return nil, err
	}
	r := c.realm()
	have := make([]int, len(r.ChannelFolders))
	for i, f := range r.ChannelFolders {
		have[i] = f.ID
	}
	if len(order) != len(have) || !sameIntSet(order, have) {
		return nil, errBadRequest("Invalid order mapping.")
	}
	folders := make([]*ChannelFolder, len(order))
	for i, id := range order {
		folders[i] = r.folder(id)
	}
	r.ChannelFolders = folders
	return obj{}, nil
}

// registerChannelFolders is register's channel_folders section.
func (s *Server) registerChannelFolders(_ *registerRequest, out obj) {
	out["channel_folders"] = s.channelFoldersWire(true)
}
