package mailtest

import (
	"context"
	"net"
	"strings"
	"testing"

	"github.com/miekg/dns"
)

// DNS is a DNS server on a loopback UDP port that answers TXT queries
// from fixed records, as a mail provider's name server publishes its DKIM
// keys. It runs in the test's process (github.com/miekg/dns) and stops
// when the test ends.
type DNS struct {
	addr    string
	records map[string]string // fully qualified lower-case name -> TXT
}

// StartDNS serves records, TXT values by name ("mail._domainkey.
// players.test"), for the rest of the test. Every other name does not
// exist.
func StartDNS(t testing.TB, records map[string]string) *DNS {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("mailtest: dns: %v", err)
	}
	d := &DNS{addr: pc.LocalAddr().String(), records: map[string]string{}}
	for name, v := range records {
		d.records[dns.Fqdn(strings.ToLower(name))] = v
	}
	started := make(chan struct{})
	srv := &dns.Server{PacketConn: pc, Handler: dns.HandlerFunc(d.answer), NotifyStartedFunc: func() { close(started) }}
	served := make(chan error, 1)
	go func() { served <- srv.ActivateAndServe() }()
	select {
	case <-started:
	case err := <-served:
		t.Fatalf("mailtest: dns: %v", err)
	}
	t.Cleanup(func() {
		if err := srv.Shutdown(); err != nil {
			t.Errorf("mailtest: dns: %v", err)
		}
	})
	return d
}

// Addr is the server's address, host:port.
func (d *DNS) Addr() string { return d.addr }

// LookupTXT looks name up over UDP at the server, with the resolver of
// Go's standard library, as the judge does.
func (d *DNS) LookupTXT(ctx context.Context, name string) ([]string, error) {
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dialer net.Dialer
		return dialer.DialContext(ctx, "udp", d.addr)
	}}
	return r.LookupTXT(ctx, name)
}

// answer answers one query: the TXT record of its name, split into the
// strings of at most 255 bytes a TXT record holds, or NXDOMAIN.
func (d *DNS) answer(w dns.ResponseWriter, req *dns.Msg) {
	m := new(dns.Msg)
	m.SetReply(req)
	m.Authoritative = true
	found := false
	for _, q := range req.Question {
		v, ok := d.records[strings.ToLower(q.Name)]
		if !ok {
			continue
		}
		found = true
		if q.Qtype != dns.TypeTXT {
			continue
		}
		var parts []string
		for len(v) > 255 {
			parts, v = append(parts, v[:255]), v[255:]
		}
		parts = append(parts, v)
		m.Answer = append(m.Answer, &dns.TXT{Hdr: dns.RR_Header{Name: q.Name, Rrtype: dns.TypeTXT, Class: dns.ClassINET, Ttl: 60}, Txt: parts})
	}
	if !found {
		m.Rcode = dns.RcodeNameError
	}
	_ = w.WriteMsg(m)
}
