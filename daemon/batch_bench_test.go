package daemon_test

import (
	"context"
	"fmt"
	"testing"

	"pbemd/daemon"
	"pbemd/daemon/daemontest"
)

// BenchmarkOrderMailsBatch2000: BenchmarkOrderMails2000's 2,000 order
// mails, handed to the daemon as poll batches of daemon.MaxBatch
// (HandleMails), as the server does: a commit per batch, not per mail.
func BenchmarkOrderMailsBatch2000(b *testing.B) {
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		tb := daemontest.NewWith(b, func(o *daemon.Options) { o.RateLimit = 1 << 30 })
		tb.Create("many", "standard", "")
		en := tb.SignUp("many", standardPowers)["england"]
		tb.Outbox()
		ins := make([]*daemon.Incoming, 2000)
		for k := range ins {
			ins[k] = batchMail(fmt.Sprintf("o%d-%d@test", i, k), en, orderVariants[k%len(orderVariants)])
		}
		b.StartTimer()
		for k := 0; k < len(ins); k += daemon.MaxBatch {
			for _, err := range tb.D.HandleMails(context.Background(), ins[k:min(k+daemon.MaxBatch, len(ins))]) {
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	}
	b.ReportMetric(2000*float64(b.N)/b.Elapsed().Seconds(), "mails/s")
}
