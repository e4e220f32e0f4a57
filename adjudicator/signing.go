package adjudicator

import "fmt"

// SigningPage is the page that says how to make a key, send it with join
// and sign orders from each mail program players use. The judge's mail
// names it as the repository names it, as it names the other docs.
const SigningPage = "docs/signing.md"

// MailClient is a mail program, or a terminal tool, that SigningPage has a
// section for.
type MailClient struct {
	// Section is the section's anchor in SigningPage: "thunderbird".
	Section string
	// Name is what a player calls the program: "Thunderbird".
	Name string
}

// MailClients returns the programs SigningPage has a section for, in the
// page's order. The mail side guesses a message's Envelope.Client among
// the mail programs of this list.
func MailClients() []MailClient {
	return []MailClient{
		{"thunderbird", "Thunderbird"},
		{"apple-mail", "Apple Mail"},
		{"outlook", "Outlook"},
		{"gmail", "Gmail"},
		{"android", "K-9 Mail, Thunderbird for Android or FairEmail"},
		{"proton-mail", "Proton Mail"},
		{"mutt", "mutt"},
		{"gpg", "gpg in a terminal"},
		{"ssh-keygen", "ssh-keygen in a terminal"},
	}
}

// mailClient returns the program whose section is section; ok is false
// for "" and for a section SigningPage does not have.
func mailClient(section string) (c MailClient, ok bool) {
	for _, c := range MailClients() {
		if c.Section == section {
			return c, true
		}
	}
	return MailClient{}, false
}

// signOrdersNote is what the answer to a join says about signing orders.
const signOrdersNote = "Sign your order files with this same key: " + SigningPage + " says how, from\n" +
	"each mail program and from a terminal.\n"

// signingPointer is the sentence of an answer that points the sender to
// the section of SigningPage for the mail program their message came
// from (section, guessed by the mail side), or to the page's list when it
// is not known.
func signingPointer(section string) string {
	if c, ok := mailClient(section); ok {
		return fmt.Sprintf("Your mail seems to come from %s:\n%s#%s says how to make a key,\n"+
			"send it with 'join' and sign your orders from it.\n", c.Name, SigningPage, c.Section)
	}
	return SigningPage + " has a section for each mail program (Thunderbird, Apple Mail,\n" +
		"Outlook, Gmail, Android phones, Proton Mail, mutt) and for gpg and ssh-keygen in a\n" +
		"terminal: how to make a key, send it with 'join' and sign your orders.\n"
}
