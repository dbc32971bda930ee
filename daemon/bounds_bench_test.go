package daemon_test

import (
	"fmt"
	"strings"
	"testing"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
)

// The benchmarks of the work one mail causes. They use the real store in
// a temporary folder; its commits wait for the disk (fdatasync), so run
// them with TMPDIR=/dev/shm as well to see the daemon's own cost.

// BenchmarkHugeOrderMail: one order mail of 75,000 lines (0.98 MB, under
// the size limit) from England, and the size of what it is answered with.
func BenchmarkHugeOrderMail(b *testing.B) {
	tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
	tb.Create("big", "standard", "")
	pl := tb.SignUp("big", standardPowers)
	tb.Outbox()
	text := repeat(75000, "F Lon - Nth", "A Lvp - Yor", "F Edi - Nwg")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tb.As(pl["england"], text)
		b.StopTimer()
		n := 0
		for _, m := range tb.Outbox() {
			n += len(m.Text)
		}
		b.ReportMetric(float64(n), "reply-bytes")
		b.StartTimer()
	}
}

var orderVariants = []string{"F Lon - Nth", "A Lvp - Yor", "F Edi - Nwg", "F Lon H\nA Lvp - Edi"}

// BenchmarkOrderMails2000: 2,000 order mails through one token in one
// phase, each acknowledged (the rate limit lifted). Target ≥ 500 mails/s.
func BenchmarkOrderMails2000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
		tb.Create("many", "standard", "")
		pl := tb.SignUp("many", standardPowers)
		tb.Outbox()
		b.StartTimer()
		for k := 0; k < 2000; k++ {
			tb.As(pl["england"], orderVariants[k%len(orderVariants)])
		}
	}
	b.ReportMetric(2000*float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}

// BenchmarkOrderMailAfterVersions: the cost of one more order mail once
// the power has sent 1 or 2,000 versions in the phase; the two should be
// the same.
func BenchmarkOrderMailAfterVersions(b *testing.B) {
	for _, n := range []int{1, 2000} {
		b.Run(fmt.Sprint("versions=", n), func(b *testing.B) {
			tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
			tb.Create("after", "standard", "")
			pl := tb.SignUp("after", standardPowers)
			for k := 0; k < n; k++ {
				tb.As(pl["england"], orderVariants[k%len(orderVariants)])
			}
			tb.Outbox()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tb.As(pl["england"], orderVariants[i%len(orderVariants)])
			}
		})
	}
}

// BenchmarkOrderMailsBesideSignons: England's order mails (by reply
// token) alone, interleaved with a flood of SIGNONs with wrong passwords
// from ever new addresses, and beside another goroutine that signs France
// on with the right password over and over — at the default bcrypt cost.
// The player-mails/s figures should be alike: a failed SIGNON past the
// limits costs no bcrypt, and bcrypt never runs inside the write lock.
func BenchmarkOrderMailsBesideSignons(b *testing.B) {
	setup := func(b *testing.B) (*daemontest.Table, daemontest.Player, string) {
		tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30; o.PasswordCost = 0 })
		tb.Create("flood", "standard", "")
		for _, p := range standardPowers {
			tb.Send(p+"@example.test", "", "JOIN flood prefer "+p)
		}
		var eng daemontest.Player
		var frPassword string
		for _, m := range tb.Outbox() {
			switch {
			case m.Subject == "[flood] You are England":
				eng = daemontest.Player{Addr: m.To, Token: m.Token}
			case m.Subject == "[flood] You are France":
				i := strings.Index(m.Text, "Your password: ")
				frPassword = strings.Fields(m.Text[i+len("Your password: "):])[0]
			}
		}
		return tb, eng, frPassword
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "player-mails/s")
	}
	b.Run("alone", func(b *testing.B) {
		tb, eng, _ := setup(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tb.As(eng, orderVariants[i%len(orderVariants)])
		}
		report(b)
	})
	b.Run("wrong-passwords", func(b *testing.B) {
		tb, eng, _ := setup(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tb.Send(fmt.Sprintf("guesser%d@example.test", i), "", fmt.Sprintf("SIGNON france flood guess%d\nA Par - Bur", i))
			tb.As(eng, orderVariants[i%len(orderVariants)])
		}
		report(b)
	})
	b.Run("right-passwords-beside", func(b *testing.B) {
		tb, eng, pw := setup(b)
		stop := make(chan struct{})
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				tb.Send("france@example.test", "", "SIGNON france flood "+pw+"\nA Par - Bur")
			}
		}()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			tb.As(eng, orderVariants[i%len(orderVariants)])
		}
		b.StopTimer()
		close(stop)
		<-done
		report(b)
	})
}
