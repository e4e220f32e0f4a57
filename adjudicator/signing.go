package adjudicator

import "fmt"

// SigningPage is the page that says how to make a key, send it with join
// and sign orders from each mail program players use. The judge's mail
// names it as the repository names it, as it names the other docs.
const SigningPage = "docs/signing.md"

// MailClient is a mail program, or a terminal tool, that SigningPage has a
// section for, with the settings an answer names when its mail cannot be
// read.
type MailClient struct {
	// Section is the section's anchor in SigningPage: "thunderbird".
	Section string
	// Name is how an answer names the program: "Thunderbird".
	Name string
	// PlainText is the one setting that makes the program send plain text
	// (the answer to an HTML-only message).
	PlainText string
	// KeepText is how to send a signed order file from the program so that
	// the signed text arrives unchanged (the answer to a signature that
	// does not verify).
	KeepText string
}

// MailClients returns the programs SigningPage has a section for, in the
// page's order. The mail side guesses a message's Envelope.Client among
// the mail programs of this list.
func MailClients() []MailClient {
	return []MailClient{
		{"thunderbird", "Thunderbird",
			"in Thunderbird, Account Settings → Composition & Addressing → clear \"Compose messages in HTML format\" (or, for one message, Options → Send Format → Only Plain Text)",
			"sign with Thunderbird's own OpenPGP (Security → Digitally Sign This Message, which sends PGP/MIME), or attach orders.txt with its signature orders.txt.asc"},
		{"apple-mail", "Apple Mail",
			"in Apple Mail, Format → Make Plain Text (Settings → Composing → Message format: Plain Text for every message)",
			"sign with GPG Suite's sign button in the compose window (PGP/MIME), or attach orders.txt with its signature orders.txt.asc"},
		{"outlook", "Outlook",
			"in Outlook, Format Text → Plain Text (File → Options → Mail → Compose messages in this format: Plain Text for every message)",
			"sign with GpgOL's Sign button (Gpg4win), which sends PGP/MIME, or attach orders.txt with its signature orders.txt.asc"},
		{"gmail", "Gmail's web client",
			"send as plain text: in Gmail, ⋮ (More options) → Plain text mode",
			"Gmail's plain text mode breaks lines longer than 78 characters: keep every line of the signed text shorter, or attach orders.txt with its signature orders.txt.asc"},
		{"android", "your phone's mail app (K-9 Mail, Thunderbird for Android or FairEmail)",
			"in FairEmail, the compose screen's ⋮ → Plain text only; K-9 Mail sends plain text when the message has no formatting",
			"sign with OpenKeychain from the compose screen (PGP/MIME), or attach orders.txt with its signature"},
		{"proton-mail", "Proton Mail",
			"in Proton Mail, Settings → Messages and composing → Composer mode: Plain text",
			"turn on Sign external messages (Settings → Encryption and keys), which sends PGP/MIME, or attach orders.txt with its signature"},
		{"mutt", "mutt",
			"mutt sends plain text unless told otherwise: check send_multipart_alternative",
			"sign with mutt's p menu (PGP/MIME), or set pgp_autoinline off"},
		{"gpg", "gpg in a terminal", "", ""},
		{"ssh-keygen", "ssh-keygen in a terminal", "", ""},
	}
}

// ClientFor returns the program whose section is section. For "" and a
// section SigningPage does not have it returns "your mail program", with
// no Section and the fixes that hold for any program.
func ClientFor(section string) MailClient {
	for _, c := range MailClients() {
		if c.Section == section && section != "" {
			if c.PlainText == "" {
				c.PlainText = anyClient.PlainText
			}
			if c.KeepText == "" {
				c.KeepText = anyClient.KeepText
			}
			return c
		}
	}
	return anyClient
}

// anyClient is ClientFor's answer when the program is not known.
var anyClient = MailClient{
	Name:      "your mail program",
	PlainText: "set your mail program to send plain text (often under Format, or in the account's composition settings), or attach the order file as a .txt file with its signature",
	KeepText:  "attach orders.txt with its signature orders.txt.asc (gpg --detach-sign -a orders.txt), which no mail program changes, or use your mail program's PGP/MIME signing",
}

// signOrdersNote is what the answer to a join says about signing orders.
const signOrdersNote = "Sign your order files with this same key: " + SigningPage + " says how, from\n" +
	"each mail program and from a terminal.\n"

// signingPointer is the sentence of an answer that points the sender to
// the section of SigningPage for the mail program their message came
// from (section, guessed by the mail side), or to the page's list when it
// is not known.
func signingPointer(section string) string {
	if c := ClientFor(section); c.Section != "" {
		return fmt.Sprintf("Your mail seems to come from %s:\n%s#%s says how to make a key,\n"+
			"send it with 'join' and sign your orders from it.\n", c.Name, SigningPage, c.Section)
	}
	return SigningPage + " has a section for each mail program (Thunderbird, Apple Mail,\n" +
		"Outlook, Gmail, Android phones, Proton Mail, mutt) and for gpg and ssh-keygen in a\n" +
		"terminal: how to make a key, send it with 'join' and sign your orders.\n"
}
