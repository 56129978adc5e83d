package zulip

import (
	"context"
	"net/http"
	"strconv"
)

// ChannelFolder is a channel folder (FL389; schema ChannelFolder). Folders are never
// deleted, only archived, and their names stay taken, archived folders included.
type ChannelFolder struct {
	ID                  int64  `json:"id"`
	Name                string `json:"name"`
	Description         string `json:"description"`
	RenderedDescription string `json:"rendered_description"`
	// Order is the folder's position (FL414); nil on older servers, which sort by id.
	Order       *int64 `json:"order"`
	DateCreated *int64 `json:"date_created"`
	CreatorID   *int64 `json:"creator_id"`
	IsArchived  bool   `json:"is_archived"`
}

// ListChannelFoldersOptions are the parameters of ListChannelFolders.
type ListChannelFoldersOptions struct {
	// IncludeArchived also returns archived folders. Nil leaves the server default (false).
	IncludeArchived *bool
}

// CreateChannelFolderRequest is the body of CreateChannelFolder. Zulip requires the
// description parameter (it may be empty), so it is always sent.
type CreateChannelFolderRequest struct {
	Name        string
	Description string
}

// UpdateChannelFolderRequest is the body of UpdateChannelFolder; nil fields are not sent.
type UpdateChannelFolderRequest struct {
	Name        *string
	Description *string
	// IsArchived archives (true) or unarchives (false) the folder. Archiving a folder that
	// still holds channels is refused ("You need to remove all the channels from this
	// folder to archive it.").
	IsArchived *bool
}

// ListChannelFolders returns the organization's channel folders in display order (GET
// /channel_folders, FL389). Idempotent.
func (c *Client) ListChannelFolders(ctx context.Context, opts ListChannelFoldersOptions) ([]ChannelFolder, error) {
	p := newParams().optJSONBool("include_archived", opts.IncludeArchived)
	var out struct {
		ChannelFolders []ChannelFolder `json:"channel_folders"`
	}
	err := c.do(ctx, request{method: http.MethodGet, path: "channel_folders", params: p, idempotent: true}, &out)
	return out.ChannelFolders, err
}

// CreateChannelFolder creates a channel folder and returns its id (POST
// /channel_folders/create, FL389; administrators). Not idempotent: a repeat fails because
// the name is in use, so after an uncertain failure reconcile with ListChannelFolders
// (archived folders included).
func (c *Client) CreateChannelFolder(ctx context.Context, r CreateChannelFolderRequest) (int64, error) {
	p := newParams().str("name", r.Name).str("description", r.Description)
	var out struct {
		ID int64 `json:"channel_folder_id"`
	}
	err := c.do(ctx, request{method: http.MethodPost, path: "channel_folders/create", params: p, idempotent: false}, &out)
	return out.ID, err
}

// UpdateChannelFolder renames, redescribes, archives or unarchives a channel folder (PATCH
// /channel_folders/{id}, FL389; administrators). Idempotent: Zulip skips values that are
// already set. An unknown id answers "Invalid channel folder ID".
func (c *Client) UpdateChannelFolder(ctx context.Context, id int64, r UpdateChannelFolderRequest) error {
	p := newParams().optStr("name", r.Name).optStr("description", r.Description).optJSONBool("is_archived", r.IsArchived)
	return c.do(ctx, request{method: http.MethodPatch, path: "channel_folders/" + strconv.FormatInt(id, 10), params: p, idempotent: true}, nil)
}

// ReorderChannelFolders sets the display order of the channel folders; ids must list every
// folder, archived ones included (PATCH /channel_folders, FL414; administrators).
// Idempotent.
func (c *Client) ReorderChannelFolders(ctx context.Context, ids []int64) error {
	p := newParams().jsonList("order", ids)
	return c.do(ctx, request{method: http.MethodPatch, path: "channel_folders", params: p, idempotent: true}, nil)
}
