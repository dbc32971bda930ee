package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// oddString holds every ASCII byte, then runes and bytes that encoding/json
// escapes or replaces: U+2028, U+2029, invalid UTF-8.
func oddString() string {
	var s strings.Builder
	for c := range 128 {
		s.WriteByte(byte(c))
	}
	s.WriteString("\u2028\u2029é€😀\xff\xc3(\u00a0")
	return s.String()
}

// checkOutboxJSON fails t unless the outbox's writers write v as
// json.Marshal does, byte for byte (and fail where it fails), and what
// they write reads back with json.Unmarshal.
func checkOutboxJSON(t *testing.T, v any) {
	t.Helper()
	want, wantErr := json.Marshal(v)
	var got []byte
	var err error
	switch v := v.(type) {
	case OutboxMessage:
		got, err = outboxMessageJSON(&v)
	case OutboxStatus:
		got, err = outboxStatusJSON(v)
	default:
		t.Fatalf("a %T is no outbox record", v)
	}
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Fatalf("error %v, encoding/json's %v", err, wantErr)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("wrote\n%s\nencoding/json\n%s", got, want)
	}
	if err == nil {
		back := reflect.New(reflect.TypeOf(v))
		if err := json.Unmarshal(got, back.Interface()); err != nil {
			t.Fatalf("%s does not read back: %v", got, err)
		}
	}
}

// TestOutboxJSONAsMarshal: the outbox's records, OutboxMessage and
// OutboxStatus, are written as json.Marshal writes them, byte for byte:
// empty and nil lists, zero times and times in other zones (and those it
// refuses), strings that need escaping, and every field set.
func TestOutboxJSONAsMarshal(t *testing.T) {
	s := oddString()
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	ns := time.Date(2026, 12, 31, 23, 59, 59, 123456789, time.UTC)
	kolkata := time.Date(2026, 3, 1, 17, 30, 0, 120000000, time.FixedZone("IST", 5*3600+30*60))
	west := time.Date(1999, 1, 2, 3, 4, 5, 6, time.FixedZone("", -(9*3600+30*60)))
	secs := time.Date(1900, 1, 1, 0, 0, 0, 0, time.FixedZone("LMT", -75)) // the offset's seconds are dropped: "-00:01"
	under := time.Date(1900, 1, 1, 0, 0, 0, 0, time.FixedZone("LMT", 30)) // less than a minute: "+00:00", not "Z"
	zoneZero := time.Date(2026, 3, 1, 12, 0, 0, 0, time.FixedZone("GMT", 0))
	zeroElsewhere := time.Time{}.In(time.FixedZone("X", 3600)) // IsZero: omitted
	local := time.Unix(1772366400, 5).Local()                  // the test's own zone, with a monotonic reading
	now := time.Now()
	edges := []time.Time{
		time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.FixedZone("", -3600)), // 10000 in UTC
		time.Date(0, 1, 1, 0, 30, 0, 0, time.FixedZone("", 3600)),                 // -1 in UTC
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 23*3600+59*60)),
	}
	refused := []time.Time{
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(-1, 12, 31, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", 24*3600)),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.FixedZone("", -25*3600)),
	}

	messages := map[string]OutboxMessage{
		"zero":       {},
		"queued":     {ID: 1, MessageID: "a@x", From: "gm@x", To: []string{"p1@x"}, Raw: []byte("A"), Queued: t0},
		"null from":  {ID: 2, MessageID: "b@x", To: []string{"p1@x", "p2@x"}, Queued: ns, NextAttempt: ns.Add(time.Minute)},
		"empty to":   {ID: 3, MessageID: "c@x", To: []string{}, Parts: []OutboxPart{}, Queued: t0},
		"nil to":     {ID: 4, MessageID: "d@x", To: nil, Parts: nil},
		"empty to 1": {To: []string{""}},
		"parts": {ID: 5, MessageID: "e@x", From: "gm@x", To: []string{"p@x"}, Queued: t0, Parts: []OutboxPart{
			{Key: "text/g/abc", Off: 0, Data: []byte("data")},
			{Key: "picture/g/1", Off: 1234, Base64: true},
			{},
			{Key: s, Off: -1},
		}},
		"retried": {ID: 6, MessageID: "f@x", To: []string{"p@x"}, Queued: kolkata, Attempts: 3, NextAttempt: west, LastError: "451 4.3.0 try again later"},
		"failed":  {ID: 7, MessageID: "g@x", To: []string{"p@x"}, Queued: t0, Attempts: -2, Failed: secs, Reason: "550 5.1.1 <p@x>: no such user"},
		"zones":   {ID: 8, Queued: under, NextAttempt: zoneZero, Failed: local},
		"now":     {ID: 9, Queued: now, NextAttempt: now.UTC(), Failed: now.Round(0)},
		"failed zero elsewhere": {
			ID: 10, Queued: zeroElsewhere, NextAttempt: zeroElsewhere, Failed: zeroElsewhere,
		},
		"odd strings": {
			ID: 1<<64 - 1, MessageID: s, From: s, To: []string{s, "", "<p@x>", `"q"@x`, "a&b", "\u2028", "\xff"},
			Parts: []OutboxPart{{Key: s, Off: 1<<62 + 1, Base64: true}}, LastError: s, Reason: s,
			Queued: t0, NextAttempt: t0, Failed: t0,
		},
		"del": {MessageID: "\x7f", From: "\x1f", To: []string{"\x00", "\t\n\r\b\f"}, LastError: `\`, Reason: "é"},
	}
	for i, at := range edges {
		messages[fmt.Sprintf("edge %d", i)] = OutboxMessage{Queued: at, NextAttempt: at, Failed: at}
	}
	for i, at := range refused {
		messages[fmt.Sprintf("refused queued %d", i)] = OutboxMessage{Queued: at}
		messages[fmt.Sprintf("refused next %d", i)] = OutboxMessage{Queued: t0, NextAttempt: at, LastError: s}
		messages[fmt.Sprintf("refused failed %d", i)] = OutboxMessage{MessageID: s, Failed: at, Reason: "r"}
	}
	messages["every field"] = everyOutboxField(t, reflect.TypeFor[OutboxMessage](), "s%d").(OutboxMessage)
	messages["every field, escaped"] = everyOutboxField(t, reflect.TypeFor[OutboxMessage](), "<s%d>").(OutboxMessage)
	for name, m := range messages {
		t.Run("message/"+name, func(t *testing.T) { checkOutboxJSON(t, m) })
	}

	statuses := map[string]OutboxStatus{
		"zero":             {},
		"queued":           {State: OutboxQueued, ID: 1},
		"sent":             {State: OutboxSent, ID: 2, At: ns},
		"failed":           {State: OutboxFailed, ID: 1<<64 - 1, At: kolkata, Reason: "550 5.7.1 <p@x> refused & \"blocked\""},
		"odd":              {State: s, At: west, Reason: s},
		"zero elsewhere":   {State: OutboxSent, At: zeroElsewhere},
		"local":            {State: OutboxSent, At: local, Reason: "\u2029"},
		"every field":      everyOutboxField(t, reflect.TypeFor[OutboxStatus](), "s%d").(OutboxStatus),
		"every field, esc": everyOutboxField(t, reflect.TypeFor[OutboxStatus](), "s%d&").(OutboxStatus),
	}
	for i, at := range append(edges, refused...) {
		statuses[fmt.Sprintf("at %d", i)] = OutboxStatus{State: OutboxFailed, At: at, Reason: "r"}
	}
	for name, st := range statuses {
		t.Run("status/"+name, func(t *testing.T) { checkOutboxJSON(t, st) })
	}
}

// everyOutboxField is a value of type typ (an outbox record) with every
// exported field reachable from it set to a value that is not zero, by
// reflection; strings are made with format and a count. A field added to
// OutboxMessage, OutboxPart or OutboxStatus that the writer does not
// write fails TestOutboxJSONAsMarshal.
func everyOutboxField(t *testing.T, typ reflect.Type, format string) any {
	t.Helper()
	v := reflect.New(typ).Elem()
	n := 0
	var fill func(v reflect.Value, path string)
	fill = func(v reflect.Value, path string) {
		n++
		if v.Type() == reflect.TypeFor[time.Time]() {
			zone := time.FixedZone("", (n%5-2)*3600+n%2*1800)
			v.Set(reflect.ValueOf(time.Date(2000+n, time.Month(n%12+1), n%28+1, n%24, n%60, n%60, n*1000+n, zone)))
			return
		}
		switch v.Kind() {
		case reflect.Struct:
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					fill(v.Field(i), path+"."+f.Name)
				}
			}
		case reflect.Slice:
			v.Set(reflect.MakeSlice(v.Type(), 2, 2))
			for i := range 2 {
				fill(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.String:
			v.SetString(fmt.Sprintf(format, n))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			v.SetInt(int64(n))
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			v.SetUint(uint64(n))
		default:
			t.Fatalf("%s: a %s in an outbox record: teach outboxjson.go and this test about it", path, v.Type())
		}
	}
	fill(v, typ.Name())
	return v.Interface()
}

// TestOutboxRecordsAsMarshal: what the outbox stores for a mail queued,
// tried, sent and failed is json.Marshal's record, byte for byte.
func TestOutboxRecordsAsMarshal(t *testing.T) {
	db := openTest(t)
	t0 := time.Date(2026, 3, 1, 12, 0, 0, 987654321, time.FixedZone("CET", 3600))
	stored := func(bucket, key []byte) []byte {
		t.Helper()
		var v []byte
		if err := db.View(func(tx *Tx) error { v = bytes.Clone(tx.bucket(bucket).Get(key)); return nil }); err != nil {
			t.Fatal(err)
		}
		return v
	}
	check := func(what string, got []byte, want any) {
		t.Helper()
		w, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, w) {
			t.Errorf("%s stored\n%s\nencoding/json\n%s", what, got, w)
		}
	}

	m := OutboxMessage{
		MessageID: "18b4c2d3e4f5a6b7.0123@pbem.example", From: "gm@pbem.example", To: []string{"p1@x", "Ünï <p2@x>"},
		Raw: []byte("Subject: hi\r\n\r\nbody"), Parts: []OutboxPart{{Key: "text/g/<&>\"\\\u2028é\x01", Off: 3, Data: []byte("part"), Base64: true}},
		Queued: t0, NextAttempt: t0.Add(time.Second),
		Attempts: 5, LastError: "dropped", Failed: t0, Reason: "dropped", // EnqueueMail clears these
	}
	id := enqueue(t, db, m)
	want := m
	want.ID, want.Attempts, want.LastError, want.Failed, want.Reason = id, 0, "", time.Time{}, ""
	check("queued mail", stored(bucketOutbox, u64(id)), want)
	check("queued status", stored(bucketOutboxMsgID, []byte(m.MessageID)), OutboxStatus{State: OutboxQueued, ID: id})

	retry := t0.Add(time.Hour).UTC()
	if err := db.Update(func(tx *Tx) error {
		if err := tx.BeginMailAttempt(id, retry); err != nil {
			return err
		}
		return tx.RetryMail(id, retry, "451 <busy> & \"later\"")
	}); err != nil {
		t.Fatal(err)
	}
	want.Attempts, want.NextAttempt, want.LastError = 1, retry, "451 <busy> & \"later\""
	check("retried mail", stored(bucketOutbox, u64(id)), want)

	failedAt := t0.Add(2 * time.Hour)
	if err := db.Update(func(tx *Tx) error { return tx.MailFailed(id, failedAt, "550 no such user") }); err != nil {
		t.Fatal(err)
	}
	want.Failed, want.Reason = failedAt, "550 no such user"
	check("failed mail", stored(bucketOutboxFailed, u64(id)), want)
	check("failed status", stored(bucketOutboxMsgID, []byte(m.MessageID)), OutboxStatus{State: OutboxFailed, ID: id, At: failedAt, Reason: "550 no such user"})

	m2 := OutboxMessage{MessageID: "second@x", To: []string{"p@x"}, Raw: []byte("B"), Queued: t0}
	id2 := enqueue(t, db, m2)
	sentAt := t0.Add(3 * time.Hour).In(time.FixedZone("", -7*3600))
	if err := db.Update(func(tx *Tx) error { return tx.MailSent(id2, sentAt) }); err != nil {
		t.Fatal(err)
	}
	check("sent status", stored(bucketOutboxMsgID, []byte(m2.MessageID)), OutboxStatus{State: OutboxSent, ID: id2, At: sentAt})
}

// TestOutboxJSONRefusedTime: a mail whose time encoding/json refuses is
// not queued, with encoding/json's error, as before.
func TestOutboxJSONRefusedTime(t *testing.T) {
	db := openTest(t)
	m := OutboxMessage{MessageID: "late@x", To: []string{"p@x"}, Raw: []byte("A"), Queued: time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)}
	err := db.Update(func(tx *Tx) error { _, err := tx.EnqueueMail(m); return err })
	if err == nil || !strings.Contains(err.Error(), "year outside of range") {
		t.Fatalf("enqueue of a mail queued in year 10000: %v", err)
	}
	if err := db.View(func(tx *Tx) error {
		if n := tx.OutboxLen(); n != 0 {
			t.Errorf("%d mails in the outbox", n)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// FuzzOutboxJSON: for any strings and times, the outbox's writers write
// what json.Marshal writes.
func FuzzOutboxJSON(f *testing.F) {
	f.Add("a@x", "gm@x", "p@x", int64(1772366400123456789), 0, true)
	f.Add(oddString(), "", "\u2028", int64(-62135596800), 19800, false)
	f.Add("<>&\"\\", "\x00\x1f\x7f", "\xff\xfe", int64(253402300800), -86400, true)
	f.Fuzz(func(t *testing.T, a, b, c string, ns int64, offset int, base64 bool) {
		at := time.Unix(0, ns).In(time.FixedZone(c, offset))
		checkOutboxJSON(t, OutboxMessage{
			ID: uint64(ns), MessageID: a, From: b, To: []string{c, a}, Parts: []OutboxPart{{Key: c, Off: offset, Base64: base64}},
			Queued: at, Attempts: offset, NextAttempt: at.UTC(), LastError: b, Failed: at, Reason: c,
		})
		checkOutboxJSON(t, OutboxStatus{State: a, ID: uint64(offset), At: at, Reason: b})
	})
}

// BenchmarkOutboxJSON: the outbox's records of a mail of a deadline burst
// written by outboxjson.go and by encoding/json.
func BenchmarkOutboxJSON(b *testing.B) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 123456789, time.UTC)
	m := OutboxMessage{
		ID: 123456, MessageID: "18b4c2d3e4f5a6b7.0123456789abcdef@pbem.example", From: "gm@pbem.example", To: []string{"player.one@example.org"},
		Parts: []OutboxPart{{Key: "text/game-0042/3f2a9c1d8e7b6a5f4e3d2c1b0a998877", Off: 1834}}, Queued: now,
	}
	st := OutboxStatus{State: OutboxQueued, ID: m.ID}
	b.Run("writer=outboxjson", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := outboxMessageJSON(&m); err != nil {
				b.Fatal(err)
			}
			if _, err := outboxStatusJSON(st); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("writer=encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
			if _, err := json.Marshal(st); err != nil {
				b.Fatal(err)
			}
		}
	})
}
