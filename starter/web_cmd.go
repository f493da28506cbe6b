package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"go.temporal.io/sdk/client"

	"github.com/autoscheduler/autoscheduler/internal/config"
	"github.com/autoscheduler/autoscheduler/internal/store"
	"github.com/autoscheduler/autoscheduler/internal/web"
	"github.com/autoscheduler/autoscheduler/starter/cmdutil"
)

// webOptions are the flags of `autoscheduler web` (and dev's web app).
type webOptions struct {
	Listen       string
	Token        string
	AllowedHosts []string
	TemporalUI   string
}

// bind adds the web app's flags; prefix names them inside `dev`.
func (o *webOptions) bind(cmd *cobra.Command, prefix string) {
	f := cmd.Flags()
	f.StringVar(&o.Listen, prefix+"listen", web.DefaultListen, "address of the review web app; any address but loopback needs a token")
	f.StringVar(&o.Token, prefix+"token", os.Getenv("AUTOSCHEDULER_WEB_TOKEN"), "token the web app requires on every request (env AUTOSCHEDULER_WEB_TOKEN; required off loopback): at least 128 bits estimated, no spaces; web --generate-token prints one")
	f.StringArrayVar(&o.AllowedHosts, prefix+"allowed-host", nil, "a host name (or address, optional :port) people reach the web app by, besides loopback names and the --"+prefix+"listen host; repeatable; needs a token. Requests naming any other host are refused (DNS rebinding)")
}

// webCmdOptions are `autoscheduler web`'s: the web app's flags and what
// it serves from.
type webCmdOptions struct {
	io       *cmdutil.IOStreams
	stores   *config.Stores
	temporal *temporalConfig
	webOptions
	// GenerateToken is --generate-token: print a token and exit.
	GenerateToken bool
}

func newWebCmd(f *Factory, runF func(context.Context, *webCmdOptions) error) *cobra.Command {
	opts := &webCmdOptions{io: f.IOStreams, stores: f.Stores, temporal: f.Temporal}
	cmd := &cobra.Command{
		Use:   "web",
		Short: "Serve the review web app: import, prompt, review, answer, accept and undo in the browser",
		Long: "Serve the review web app on --listen (loopback by default). It talks to Temporal as the\n" +
			"CLI does and to the configured stores; dispatches wait in Temporal, so closing the\n" +
			"browser loses nothing. An address other than loopback requires --token (or\n" +
			"AUTOSCHEDULER_WEB_TOKEN): open the app once with ?token=TOKEN, or send\n" +
			"Authorization: Bearer TOKEN. A token must be strong (about 128 bits: 24 random\n" +
			"letters and digits; --generate-token prints one), whether on loopback or not.\n" +
			"Requests must name the app by a loopback host (localhost, 127.0.0.1, [::1]); with\n" +
			"a token also by the --listen host or an --allowed-host name: any other Host is\n" +
			"refused (421), so a web page cannot reach the app by re-pointing its own name.",
		Example: "  autoscheduler web\n" +
			"  export AUTOSCHEDULER_WEB_TOKEN=$(autoscheduler web --generate-token)\n" +
			"  autoscheduler web --listen 0.0.0.0:8090 --allowed-host scheduler.example.com --allowed-host 192.168.1.5",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !opts.GenerateToken {
				// A weak token or a wrong name fails now, not after Temporal and the stores.
				if err := (web.Config{Listen: opts.Listen, Token: opts.Token, AllowedHosts: opts.AllowedHosts}).Check(); err != nil {
					return usagef("web: %v", err)
				}
				if !cmd.Flags().Changed("temporal-ui") && opts.temporal.Address == config.DefaultTemporalAddress {
					opts.TemporalUI = "http://127.0.0.1:8233" // `autoscheduler dev`'s Web UI
				}
			}
			return cmdutil.RunOr(cmd, opts, runF, webRun)
		},
	}
	opts.bind(cmd, "")
	cmd.Flags().BoolVar(&opts.GenerateToken, "generate-token", false, "print a new random token (256 bits) for --token or AUTOSCHEDULER_WEB_TOKEN and exit")
	cmd.Flags().StringVar(&opts.TemporalUI, "temporal-ui", "", "Temporal Web UI base URL, for links to each dispatch's execution (default: dev's, when Temporal is dev's)")
	return cmd
}

func webRun(ctx context.Context, opts *webCmdOptions) error {
	if opts.GenerateToken {
		t, err := web.GenerateToken()
		if err != nil {
			return err
		}
		fmt.Fprintln(opts.io.Out, t)
		return nil
	}
	c, err := opts.temporal.client()
	if err != nil {
		return err
	}
	defer c.Close()
	st, err := opts.stores.Open(ctx)
	if err != nil {
		return err
	}
	defer st.Close(context.Background())
	return serveWeb(ctx, opts.io, &opts.webOptions, st, c, opts.TemporalUI, opts.temporal.Namespace, opts.temporal.As, nil)
}

// serveWeb runs the web app until ctx ends, printing its link.
// ready, when set, is told the app's URL once it listens.
func serveWeb(ctx context.Context, io *cmdutil.IOStreams, opts *webOptions, st *store.Coordinator, c client.Client, ui, namespace, reviewer string, ready func(url string)) error {
	srv, err := web.New(web.Config{
		Listen: opts.Listen, Token: opts.Token, AllowedHosts: opts.AllowedHosts, TemporalUI: ui, Namespace: namespace, Reviewer: reviewer,
	}, st, c)
	if err != nil {
		return usagef("web: %v", err)
	}
	return srv.Serve(ctx, func(url string) {
		note := ""
		if opts.Token != "" {
			note = " (token required: open it once with ?token=...)"
		}
		fmt.Fprintf(io.ErrOut, "Web app: %s%s\n", url, note)
		if ready != nil {
			ready(url)
		}
	})
}
