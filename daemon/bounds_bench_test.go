package daemon_test

import (
	"fmt"
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
	tb, _, pl := standardTable(b, "big")
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
