package main

import (
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// defaultConfigFile is read when neither --config nor UMPIRE_CONFIG names
// one and it exists in the working directory.
const defaultConfigFile = "umpire.toml"

// Config is the configuration file of umpire (README.md, "Configuration").
type Config struct {
	// Store is the bbolt file that holds everything; a relative path is
	// relative to the configuration file's folder.
	Store string    `toml:"store"`
	Log   LogConfig `toml:"log"`
}

// LogConfig sets the daemon's log.
type LogConfig struct {
	Level  string `toml:"level"`  // debug, info, warn or error
	Format string `toml:"format"` // text or json
}

func defaultConfig() *Config {
	return &Config{Store: "umpire.db", Log: LogConfig{Level: "info", Format: "text"}}
}

// loadConfig reads the configuration named by flagPath, UMPIRE_CONFIG or
// umpire.toml, in that order; without any, it returns the defaults. Unknown
// keys are errors, so a misspelt setting is never silently ignored.
func (m *Main) loadConfig(flagPath string) (*Config, error) {
	path := flagPath
	if path == "" {
		path = m.Getenv("UMPIRE_CONFIG")
	}
	explicit := path != ""
	if !explicit {
		path = defaultConfigFile
	}
	cfg := defaultConfig()
	md, err := toml.DecodeFile(path, cfg)
	switch {
	case !explicit && errors.Is(err, fs.ErrNotExist):
		return cfg, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("config %s: no such file", path)
	case err != nil:
		var perr toml.ParseError
		if errors.As(err, &perr) {
			return nil, usagef("config %s: line %d: %s", path, perr.Position.Line, perr.Message)
		}
		return nil, usagef("config %s: %w", path, err)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		sort.Strings(keys)
		return nil, usagef("config %s: unknown setting %s (see README.md, Configuration)", path, strings.Join(keys, ", "))
	}
	if !filepath.IsAbs(cfg.Store) {
		cfg.Store = filepath.Join(filepath.Dir(path), cfg.Store)
	}
	if _, err := cfg.logLevel(); err != nil {
		return nil, usagef("config %s: %w", path, err)
	}
	if f := cfg.Log.Format; f != "text" && f != "json" {
		return nil, usagef("config %s: log.format %q is neither text nor json", path, f)
	}
	return cfg, nil
}

func (c *Config) logLevel() (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(c.Log.Level)); err != nil {
		return 0, fmt.Errorf("log.level %q is not debug, info, warn or error", c.Log.Level)
	}
	return l, nil
}

// logger returns the logger the configuration asks for, writing to stderr.
func (m *Main) logger(c *Config) *slog.Logger {
	level, _ := c.logLevel()
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(m.Stderr, opts))
	}
	return slog.New(slog.NewTextHandler(m.Stderr, opts))
}
