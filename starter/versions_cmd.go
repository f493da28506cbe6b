package main

import (
	"context"
	"errors"
	"fmt"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/insight"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/usertext"
	"github.com/autoscheduler/autoscheduler/internal/versions"
	"github.com/autoscheduler/autoscheduler/internal/versions/since"
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
	c, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	now, list, err := c.VersionsNow(ctx, opts.Schedule)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cmdutil.WriteJSON(opts.io.Out, versionsList{Schedule: opts.Schedule, DataDate: now.DataDate, Activities: now.Activities, Versions: list})
	}
	w := tabwriter.NewWriter(opts.io.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "DATA DATE\tKEPT AT\tACTIVITIES\tWHY")
	for _, v := range list {
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", usertext.Terminal(versions.DateText(v.DataDate)), v.KeptAt.Format(time.DateTime+" MST"), v.Activities, usertext.Terminal(v.Why))
	}
	fmt.Fprintf(w, "%s\t%s\t%d\t%s\n", usertext.Terminal(versions.DateText(now.DataDate)), "(now)", now.Activities, "the schedule as stored")
	if err := w.Flush(); err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintf(opts.io.ErrOut, "No versions of %q kept yet: one is kept each time its data date moves.\n", usertext.Terminal(opts.Schedule))
	}
	return nil
}

// openKept opens the stores and reads a schedule and its versions; close
// closes the stores.
func openKept(ctx context.Context, stores *config.Stores, id string) (k *store.Kept, close func(), err error) {
	c, err := stores.Open(ctx)
	if err != nil {
		return nil, nil, err
	}
	k, err = c.Kept(ctx, id)
	if err != nil {
		c.Close(ctx)
		return nil, nil, err
	}
	return k, func() { _ = c.Close(ctx) }, nil
}

// answerSinceUpdate answers what slipped since the last update of a
// stored schedule from its previous version, or says there is none.
func answerSinceUpdate(ctx context.Context, stores *config.Stores, id string) (insight.Answer, error) {
	k, done, err := openKept(ctx, stores, id)
	if err != nil {
		return insight.Answer{}, err
	}
	defer done()
	previous, label, err := k.Previous(ctx)
	if err != nil && !errors.Is(err, store.ErrNoPrevious) {
		return insight.Answer{}, err
	}
	return since.Answer(id, k.Now, previous, label), nil
}
