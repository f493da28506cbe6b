package devserver

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"time"

	uiserver "github.com/temporalio/ui-server/v2/server"
	uiconfig "github.com/temporalio/ui-server/v2/server/config"
	uioptions "github.com/temporalio/ui-server/v2/server/server_options"
)

// UIOptions says where the Temporal Web UI listens and which frontend it
// shows: the dev server's, or a cluster's behind TLS (CA, client pair).
type UIOptions struct {
	Listen    string // loopback host:port
	Frontend  string // Temporal frontend host:port
	Namespace string // the namespace it opens on
	// TLS to the frontend; empty: plaintext.
	CAFile, CertFile, KeyFile, ServerName string
}

// UI is a running Web UI.
type UI struct {
	server *uiserver.Server
	URL    string
}

// ServeUI serves the Web UI and returns once it accepts connections.
func ServeUI(ctx context.Context, o UIOptions, logger *slog.Logger) (*UI, error) {
	if logger == nil {
		logger = slog.Default()
	}
	addr, err := loopbackAddr(o.Listen)
	if err != nil {
		return nil, fmt.Errorf("UI address: %w", err)
	}
	host, _, _ := net.SplitHostPort(addr)
	cfg := &uiconfig.Config{
		Host:                host,
		Port:                port(addr),
		TemporalGRPCAddress: o.Frontend,
		EnableUI:            true,
		DefaultNamespace:    o.Namespace,
		CORS:                uiconfig.CORS{CookieInsecure: true},
		HideLogs:            true,
		DisableNewsFetch:    true, // no network beyond loopback
	}
	if o.CAFile != "" || o.CertFile != "" {
		cfg.TLS = uiconfig.TLS{CaFile: o.CAFile, CertFile: o.CertFile, KeyFile: o.KeyFile,
			ServerName: o.ServerName, EnableHostVerification: true}
	}
	ui := &UI{server: uiserver.NewServer(uioptions.WithConfigProvider(cfg)), URL: "http://" + addr}
	go func() {
		if err := ui.server.Start(); err != nil {
			logger.Error("Web UI stopped", "error", err)
		}
	}()
	for {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return ui, nil
		}
		select {
		case <-ctx.Done():
			ui.server.Stop()
			return nil, fmt.Errorf("wait for UI %s: %w", addr, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// Stop stops the UI.
func (u *UI) Stop() { u.server.Stop() }
