// Package templates renders what players read: the plain-text and HTML
// situation reports and the map pictures, from embedded templates that a
// templates folder in the configuration may override. It knows nothing of
// mail or storage.
package templates
