package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"pbemd/mailer"
	"pbemd/mailserver"
)

// The example config must decode with no unknown key, validate, equal the
// defaults, and mention every key of the Config struct (commented or not),
// so it cannot fall behind the code.
func TestExampleConfigIsValidCompleteAndDefault(t *testing.T) {
	var cfg Config
	if err := DecodeConfig(ExampleConfig(), &cfg); err != nil {
		t.Fatalf("example config does not decode: %v", err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatalf("example config does not validate: %v", err)
	}
	if len(cfg.Warnings()) > 0 {
		t.Errorf("the example config uses old spellings: %q", cfg.Warnings())
	}
	if !reflect.DeepEqual(cfg, DefaultConfig()) {
		t.Errorf("example config differs from the defaults:\n got %+v\nwant %+v", cfg, DefaultConfig())
	}
	// Uncomment the account sections and decode again: they must be valid
	// TOML with known keys too.
	var uncommented strings.Builder
	accounts := false
	for _, line := range strings.Split(ExampleConfig(), "\n") {
		accounts = accounts || line == "# [imap]"
		if accounts && (strings.HasPrefix(line, "# [") || strings.HasPrefix(line, "# ") && strings.Contains(line, " = ")) {
			line = strings.TrimPrefix(line, "# ")
		}
		uncommented.WriteString(line + "\n")
	}
	var full Config
	if err := DecodeConfig(uncommented.String(), &full); err != nil {
		t.Fatalf("example with accounts uncommented: %v", err)
	}
	if full.IMAP == nil || full.SMTP == nil || full.IMAP.Addr == "" || full.SMTP.Addr == "" {
		t.Fatalf("uncommented example has no accounts: %+v %+v", full.IMAP, full.SMTP)
	}
	for _, key := range tomlKeys(reflect.TypeOf(Config{}), "") {
		if !strings.Contains(ExampleConfig(), key+" =") && !strings.Contains(ExampleConfig(), "."+key+"]]") {
			t.Errorf("example config does not document %q", key)
		}
	}
}

// tomlKeys lists the leaf keys of a config struct (last path element).
func tomlKeys(t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := strings.Split(f.Tag.Get("toml"), ",")[0]
		if tag == "" || tag == "-" {
			continue
		}
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct {
			keys = append(keys, tag)
			keys = append(keys, tomlKeys(ft.Elem(), tag+".")...)
			continue
		}
		if ft.Kind() == reflect.Struct && ft != reflect.TypeOf(time.Time{}) {
			keys = append(keys, tomlKeys(ft, tag+".")...)
			continue
		}
		keys = append(keys, tag)
	}
	return keys
}

func TestConfigRefusesUnknownKeysAndBadValues(t *testing.T) {
	cases := map[string]string{
		"unknown key":         "colour = \"blue\"",
		"unknown nested key":  "[schedule]\nordres = \"48h\"",
		"bad interval":        "poll = \"every minute\"",
		"interval too short":  "tick = \"10ms\"",
		"public http":         "http = \"0.0.0.0:8025\"",
		"plain imap off-host": "[imap]\naddr = \"mail.example.org:143\"\nusername = \"u\"\nsecurity = \"plain\"\n[smtp]\naddr = \"mail.example.org:25\"\nsecurity = \"plain\"",
		"only imap":           "[imap]\naddr = \"127.0.0.1:143\"\nusername = \"u\"\nsecurity = \"plain\"",
		"bad zone":            "time_zone = \"Mars/Olympus\"",
		"pause cap of a year": "[schedule]\npause_cap = \"8760h\"",
		"negative orders":     "[schedule]\norders = \"-48h\"",
		"reminder 100 days":   "[schedule]\nreminders = [\"2400h\"]",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			cfg := DefaultConfig()
			err := DecodeConfig(text, &cfg)
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil {
				t.Fatalf("accepted:\n%s", text)
			}
		})
	}
}

func TestConfigSecretsFromEnvironment(t *testing.T) {
	t.Setenv("PBEMD_GM_PASSWORD", "from-env")
	t.Setenv("PBEMD_SMTP_PASSWORD", "smtp-env")
	cfg := DefaultConfig()
	cfg.SMTP = &mailer.SMTPConfig{Addr: "127.0.0.1:25"}
	cfg.applyEnv()
	if cfg.GMPassword != "from-env" || cfg.SMTP.Password != "smtp-env" {
		t.Fatalf("env secrets not applied: %q %q", cfg.GMPassword, cfg.SMTP.Password)
	}
}

// The example config states the embedded server's size and quota
// defaults in its comments ("0: 32 MiB"); they are the mail server's.
func TestExampleConfigStatesTheMailserverDefaults(t *testing.T) {
	size := func(n int64) string {
		if n%(1<<30) == 0 {
			return fmt.Sprintf("%d GiB", n>>30)
		}
		return fmt.Sprintf("%d MiB", n>>20)
	}
	for key, def := range map[string]string{
		"max_message_bytes":    size(mailserver.DefaultMaxMessageBytes),
		"mailbox_quota":        size(mailserver.DefaultMailboxQuota),
		"mailbox_max_messages": fmt.Sprint(mailserver.DefaultMailboxMaxMessages),
		"total_quota":          size(mailserver.DefaultTotalQuota),
		"total_max_messages":   fmt.Sprint(mailserver.DefaultTotalMaxMessages),
	} {
		found := false
		for _, line := range strings.Split(ExampleConfig(), "\n") {
			if strings.HasPrefix(line, key+" = 0 ") && strings.HasSuffix(line, "0: "+def) {
				found = true
			}
		}
		if !found {
			t.Errorf("the example config does not say %s = 0 means %s", key, def)
		}
	}
}

// poll and tick are durations now; the cron spellings of older configs and
// the old [imap] poll are still read, each with a warning that says how to
// write it today.
func TestConfigOldPollSpellingsStillRead(t *testing.T) {
	account := "[imap]\naddr = \"127.0.0.1:143\"\nusername = \"u\"\nsecurity = \"plain\"\n%s[smtp]\naddr = \"127.0.0.1:25\"\nsecurity = \"plain\"\n"
	cases := []struct {
		name, text string
		poll, tick Every
		warn       []string
	}{
		{"durations", "poll = \"30s\"\ntick = \"2m\"", Every{D: 30 * time.Second}, Every{D: 2 * time.Minute}, nil},
		{"@every", "poll = \"@every 30s\"\ntick = \"@every 2m\"", Every{D: 30 * time.Second, old: "@every 30s"}, Every{D: 2 * time.Minute, old: "@every 2m"},
			[]string{`poll = "@every 30s" is the cron spelling of older versions; write poll = "30s"`, `tick = "@every 2m" is the cron spelling of older versions; write tick = "2m0s"`}},
		{"cron", "tick = \"*/5 * * * *\"", Every{D: time.Minute}, Every{Cron: "*/5 * * * *", old: "*/5 * * * *"},
			[]string{`tick = "*/5 * * * *" is the cron spelling of older versions; it still works`}},
		{"imap poll", fmt.Sprintf(account, "poll = \"20s\"\n"), Every{D: 20 * time.Second}, Every{D: time.Minute},
			[]string{`[imap] poll = "20s" is the old place of poll; write poll = "20s" at the top instead`}},
		{"both polls", "poll = \"10s\"\n" + fmt.Sprintf(account, "poll = \"20s\"\n"), Every{D: 10 * time.Second}, Every{D: time.Minute},
			[]string{`[imap] poll = "20s" is the old place of poll; poll = "10s" (at the top) is used`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := DefaultConfig()
			if err := DecodeConfig(c.text, &cfg); err != nil {
				t.Fatal(err)
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			if cfg.Poll != c.poll || cfg.Tick != c.tick {
				t.Errorf("poll %+v tick %+v, want %+v %+v", cfg.Poll, cfg.Tick, c.poll, c.tick)
			}
			if cfg.IMAP != nil && cfg.IMAP.Poll != 0 {
				t.Errorf("[imap] poll kept beside poll: %v", cfg.IMAP.Poll)
			}
			if len(cfg.Warnings()) != len(c.warn) {
				t.Fatalf("warnings %q, want %d", cfg.Warnings(), len(c.warn))
			}
			for i, w := range c.warn {
				if !strings.HasPrefix(cfg.Warnings()[i], w) {
					t.Errorf("warning %q\nwant it to start %q", cfg.Warnings()[i], w)
				}
			}
		})
	}
}

// The server reads mail on the one poll interval and logs each old
// spelling at start.
func TestOpenUsesPollAndLogsOldSpellings(t *testing.T) {
	cfg := DefaultConfig()
	cfg.DataDir = t.TempDir()
	cfg.HTTP = ""
	cfg.Mailserver.IMAPAddr, cfg.Mailserver.SMTPAddr, cfg.Mailserver.StateFile = "127.0.0.1:0", "127.0.0.1:0", ""
	if err := DecodeConfig("poll = \"@every 7s\"", &cfg); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	srv, err := Open(cfg, slog.New(slog.NewTextHandler(&logs, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if srv.IMAP.Poll != 7*time.Second {
		t.Errorf("the fetcher polls every %v, want 7s", srv.IMAP.Poll)
	}
	if !strings.Contains(logs.String(), `level=WARN msg="config: poll = \"@every 7s\" is the cron spelling of older versions; write poll = \"7s\""`) {
		t.Errorf("no warning about the old spelling in the log:\n%s", logs.String())
	}
}

// With only one of [imap] and [smtp] the message says which one is missing
// and why both are needed.
func TestConfigOneAccountSectionNamesTheOther(t *testing.T) {
	for text, want := range map[string]string{
		"[imap]\naddr = \"127.0.0.1:143\"\nusername = \"u\"\nsecurity = \"plain\"": "sets [imap] but not [smtp]",
		"[smtp]\naddr = \"127.0.0.1:25\"\nsecurity = \"plain\"":                    "sets [smtp] but not [imap]",
	} {
		cfg := DefaultConfig()
		if err := DecodeConfig(text, &cfg); err != nil {
			t.Fatal(err)
		}
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "needs both") || !strings.Contains(err.Error(), "docs/real-mail.md") {
			t.Errorf("%s:\n%v", text, err)
		}
	}
}

// docBlocks returns the fenced blocks of a kind ("toml", "sh") in a page
// of docs/, each with the marker comment before it ("" when none).
func docBlocks(t *testing.T, page, kind string) (blocks, markers []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", page))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```"+kind {
			continue
		}
		marker := ""
		if i > 0 && strings.HasPrefix(lines[i-1], "<!-- test: ") {
			marker = strings.TrimSuffix(strings.TrimPrefix(lines[i-1], "<!-- test: "), " -->")
		}
		var b strings.Builder
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			b.WriteString(lines[i] + "\n")
		}
		blocks, markers = append(blocks, b.String()), append(markers, marker)
	}
	return blocks, markers
}

// Every config on the real-mail page is valid as written: known keys, both
// account sections, each value accepted; a block of the [web] table alone
// (publishing the pages) is read over the defaults.
func TestRealMailPageConfigsAreValid(t *testing.T) {
	blocks, _ := docBlocks(t, "real-mail.md", "toml")
	if len(blocks) < 3 {
		t.Fatalf("docs/real-mail.md has %d TOML blocks, want the local, hosted and own-server ones", len(blocks))
	}
	for i, text := range blocks {
		cfg := DefaultConfig()
		if err := DecodeConfig(text, &cfg); err != nil {
			t.Errorf("block %d: %v\n%s", i+1, err, text)
			continue
		}
		if err := cfg.Validate(); err != nil {
			t.Errorf("block %d: %v\n%s", i+1, err, text)
		}
		if web := strings.HasPrefix(text, "[web]\n"); web && strings.Contains(text, "\n[") || !web && cfg.UsesEmbedded() || len(cfg.Warnings()) > 0 {
			t.Errorf("block %d: uses the embedded server or old spellings (%q)", i+1, cfg.Warnings())
		}
	}
}
