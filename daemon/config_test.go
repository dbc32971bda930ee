package daemon

import (
	"fmt"
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
		"bad cron":            "poll = \"every minute\"",
		"public http":         "http = \"0.0.0.0:8025\"",
		"plain imap off-host": "[imap]\naddr = \"mail.example.org:143\"\nusername = \"u\"\nsecurity = \"plain\"\n[smtp]\naddr = \"mail.example.org:25\"\nsecurity = \"plain\"",
		"only imap":           "[imap]\naddr = \"127.0.0.1:143\"\nusername = \"u\"\nsecurity = \"plain\"",
		"bad zone":            "time_zone = \"Mars/Olympus\"",
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
