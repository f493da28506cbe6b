package main

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/schedule"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/internal/versions"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// versionsOptions are the flags of `autoscheduler versions`.
type versionsOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	Schedule string
	JSON     bool
}

// versionsHelp says when versions are kept and how many.
var versionsHelp = fmt.Sprintf(`List the versions kept of a stored schedule: the whole schedule as it stood at each
data date, kept when a write moved its data date on: an accepted dispatch that sets the
data date (set_data_date, "status the programme to 1 March"), or an import --replace of
the next update's file with another data date. A write that fails, or a dispatch not
accepted, keeps nothing. Edits that leave the data date keep nothing either: the version
at a data date is the schedule as it finally stood at that date.

The last %d versions are kept (ten years of monthly updates); keeping one more drops the
oldest kept. The schedule itself is never dropped. Deleting the schedule deletes them.

Compare them with compare --schedule ID --previous (the last update before the current
data date against now) or --at DATE (once against now, twice for two versions), and ask
"what slipped since the last update".`, versions.Max)

func newVersionsCmd(f *Factory, runF func(context.Context, *versionsOptions) error) *cobra.Command {
	opts := &versionsOptions{io: f.IOStreams, stores: f.Stores}
	cmd := &cobra.Command{
		Use:   "versions --schedule ID [--json]",
		Short: "List the versions kept of a stored schedule (one per data date it moved from)",
		Long:  versionsHelp,
		Example: "  autoscheduler versions --schedule building\n" +
			"  autoscheduler compare --schedule building --previous",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Schedule == "" {
				return usagef("versions: give --schedule ID")
			}
			return cmdutil.RunOr(cmd, opts, runF, versionsRun)
		},
	}
	cmd.Flags().StringVarP(&opts.Schedule, "schedule", "s", "", "stored schedule id (see import)")
	cmdutil.AddJSONFlag(cmd.Flags(), &opts.JSON, `print {"schedule", "data_date", "activities", "versions": [...]}`)
	return cmd
}

// versionsList is `versions --json`: the schedule now and its versions by
// data date.
type versionsList struct {
	Schedule   string          `json:"schedule"`
	DataDate   string          `json:"data_date"`
	Activities int             `json:"activities"`
	Versions   []versions.Info `json:"versions"`
}

func versionsRun(ctx context.Context, opts *versionsOptions) error {
	h, err := openVersions(ctx, opts.stores, opts.Schedule)
	if err != nil {
		return err
	}
	defer h.close(ctx)
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, versionsList{Schedule: opts.Schedule, DataDate: h.now.DataDate, Activities: len(h.now.Activities), Versions: h.list})
	}
	w := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DATA DATE\tKEPT AT\tACTIVITIES\tWHY")
	for _, v := range h.list {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", usertext.Terminal(versions.DateText(v.DataDate)), v.KeptAt.Format(time.DateTime+" MST"), v.Activities, usertext.Terminal(v.Why))
	}
	fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", usertext.Terminal(versions.DateText(h.now.DataDate)), "(now)", len(h.now.Activities), "the schedule as stored")
	if err := w.Flush(); err != nil {
		return err
	}
	if len(h.list) == 0 {
		fmt.Fprintf(opts.io.ErrOut, "No versions of %q kept yet: one is kept each time its data date moves.\n", usertext.Terminal(opts.Schedule))
	}
	return nil
}

// storedVersions is a stored schedule now, its versions and the open
// stores to read them with.
type storedVersions struct {
	id   string
	c    *store.Coordinator
	now  *schedule.Schedule
	list []versions.Info
}

// openVersions opens the stores and reads a schedule and its versions.
func openVersions(ctx context.Context, stores *config.Stores, id string) (*storedVersions, error) {
	c, err := stores.Open(ctx)
	if err != nil {
		return nil, err
	}
	now, err := c.Load(ctx, id)
	if err != nil {
		c.Close(ctx)
		return nil, fmt.Errorf("stored schedule %q: %w", id, err)
	}
	list, err := c.Versions(ctx, id)
	if err != nil {
		c.Close(ctx)
		return nil, err
	}
	return &storedVersions{id: id, c: c, now: now, list: list}, nil
}

func (h *storedVersions) close(ctx context.Context) { _ = h.c.Close(ctx) }

// load reads a listed version.
func (h *storedVersions) load(ctx context.Context, v versions.Info) (*schedule.Schedule, error) {
	return h.c.LoadVersion(ctx, h.id, v.ID)
}

// at is the schedule at data date d: the schedule now when d is its data
// date (the last state at that date), else the version kept at it; label
// names it.
func (h *storedVersions) at(ctx context.Context, d string) (s *schedule.Schedule, label string, err error) {
	if h.now.DataDate != "" && versions.Matches(h.now.DataDate, d) {
		return h.now, h.id + " now", nil
	}
	if v, ok := versions.At(h.list, d); ok {
		s, err := h.load(ctx, v)
		return s, versions.Label(h.id, v), err
	}
	return nil, "", fmt.Errorf("schedule %q has no version at data date %s: versions are at %s, and the schedule now at %s (see autoscheduler versions --schedule %s)",
		h.id, d, versions.Dates(h.list), versions.DateText(h.now.DataDate), h.id)
}

// previous is the last update before the current data date, or an error
// that says plainly there is none.
func (h *storedVersions) previous(ctx context.Context) (*schedule.Schedule, string, error) {
	v, ok := versions.Previous(h.list, h.now.DataDate)
	if !ok {
		return nil, "", fmt.Errorf("schedule %q has no previous version: %s", h.id, noPrevious(h.now.DataDate))
	}
	s, err := h.load(ctx, v)
	return s, versions.Label(h.id, v), err
}

// noPrevious says why there is no earlier update to compare with.
func noPrevious(current string) string {
	return fmt.Sprintf("none is kept before its data date (%s). A version is kept each time the data date moves: an accepted dispatch that sets it, or import --replace of the next update's file", versions.DateText(current))
}

// answerSinceUpdate answers what slipped since the last update of a
// stored schedule from its previous version, or says there is none.
func answerSinceUpdate(ctx context.Context, stores *config.Stores, id string) (insight.Answer, error) {
	h, err := openVersions(ctx, stores, id)
	if err != nil {
		return insight.Answer{}, err
	}
	defer h.close(ctx)
	v, ok := versions.Previous(h.list, h.now.DataDate)
	if !ok {
		return versions.NoPrevious(id, h.now.DataDate), nil
	}
	previous, err := h.load(ctx, v)
	if err != nil {
		return insight.Answer{}, err
	}
	return versions.SinceUpdate(versions.Label(id, v), previous, h.now), nil
}
