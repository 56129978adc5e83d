package kit

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// Holding says who holds the natural key (a name, an address) of an object
// that a plan creates. Zulip rarely deletes: an archived channel, a
// deactivated group or user keeps its name, so the create of a new object
// with that name must take the old one back instead (DESIGN.md, "Natural
// keys").
type Holding int

const (
	// KeyFree: no object of the organization holds the key.
	KeyFree Holding = iota
	// KeyJournaled: an interrupted apply of this working directory made the
	// holder and no state recorded it; the create adopts it (journal.go).
	KeyJournaled
	// KeyReplaced: this configuration's own object, which a replacement (a
	// tainted object, -replace) retires and the create then revives.
	KeyReplaced
	// KeyRetired: an archived or deactivated object, which the create revives.
	KeyRetired
	// KeyTaken: an active object no state of this configuration holds:
	// import it, or choose another key.
	KeyTaken
)

// HoldingOf classifies the object of typeName with id id, retired or not,
// that holds the natural key of an object being planned.
func (d *ProviderData) HoldingOf(ctx context.Context, typeName string, id int64, retired bool) Holding {
	key := strconv.FormatInt(id, 10)
	switch {
	case d.Journaled(ctx, typeName, key):
		return KeyJournaled
	// A state of this run holds it: a replacement is planned (the object is
	// still active), or this run's delete of a replacement retired it. A state's
	// object retired by someone else is KeyRetired, like any other.
	case d.HeldByState(typeName, key) && (!retired || d.replacing(typeName, key)):
		return KeyReplaced
	case retired:
		return KeyRetired
	}
	return KeyTaken
}

// Retirement is how Zulip retires the objects of a type whose name it
// keeps (it archives a channel, deactivates a group), and the words the plan
// uses for what a create does with the retired holder of a name.
type Retirement struct {
	TypeName string // "zulip_user_group"
	What     string // "user group"
	Short    string // "group": the noun in running text (What when empty)
	Retired  string // "deactivated"
	Revived  string // "reactivated"
	// Keeps is what the revived object keeps, as a phrase set off by commas
	// (", with its members,"); empty when there is nothing to say.
	Keeps string
}

// Check classifies the holder (id, name, retired) of the planned name and
// says at attr what the apply will do: nothing for KeyFree and KeyJournaled,
// a warning for KeyReplaced and KeyRetired, and for KeyTaken an error with an
// import block. A type that checks more for a revival (a feature level, a
// permission) classifies with HoldingOf and words with the methods below.
func (r Retirement) Check(ctx context.Context, d *ProviderData, attr path.Path, id int64, name string, retired bool, diags *diag.Diagnostics) Holding {
	h := d.HoldingOf(ctx, r.TypeName, id, retired)
	switch h {
	case KeyReplaced:
		r.WarnReplacing(attr, id, name, diags)
	case KeyRetired:
		r.WarnReviving(attr, id, name, diags)
	case KeyTaken:
		r.Taken(attr, id, name, diags)
	}
	return h
}

// WarnReplacing warns that replacing this configuration's own object retires
// it and then revives the same object: no new one is made.
func (r Retirement) WarnReplacing(attr path.Path, id int64, name string, diags *diag.Diagnostics) {
	short := r.short()
	diags.AddAttributeWarning(attr, fmt.Sprintf("Replacing a %s %s It", TitleCase(r.What), TitleCase(verb(r.Revived))),
		fmt.Sprintf("Zulip keeps the name of %s %s, so replacing the %s %q (id %d) %s it and then %s the same %s%s "+
			"and gives it this configuration: no new %s is made. To make a new %s, give it a new name.",
			article(r.Retired), short, short, name, id, verb(r.Retired), verb(r.Revived), short, r.Keeps, short, short))
}

// WarnReviving warns that the create revives the retired object that holds
// the name.
func (r Retirement) WarnReviving(attr path.Path, id int64, name string, diags *diag.Diagnostics) {
	short := r.short()
	diags.AddAttributeWarning(attr, fmt.Sprintf("%s %s Will Be %s", TitleCase(r.Retired), TitleCase(r.What), TitleCase(r.Revived)),
		fmt.Sprintf("The organization has %s %s named %q (id %d). Zulip keeps the names of %s %ss, so this apply %s "+
			"that %s%s and gives it the configuration here.",
			article(r.Retired), r.What, name, id, r.Retired, short, verb(r.Revived), short, r.Keeps))
}

// Taken fails the plan of a new object whose name an active object has, with
// an import block to copy.
func (r Retirement) Taken(attr path.Path, id int64, name string, diags *diag.Diagnostics) {
	diags.AddAttributeError(attr, TitleCase(r.What)+" Already Exists",
		fmt.Sprintf("The organization already has %s named %q (id %d). To manage it with this resource, import it "+
			"(with <name> this resource's name):\n\n%s\n\nor choose another name.",
			article(r.What), name, id, ImportBlock(r.TypeName, name)))
}

func (r Retirement) short() string {
	if r.Short == "" {
		return r.What
	}
	return r.Short
}

// verb turns a participle into the third person: "archived" → "archives".
func verb(participle string) string {
	return strings.TrimSuffix(participle, "d") + "s"
}
