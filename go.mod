module github.com/umpire-pbem/umpire

go 1.26.0

require (
	github.com/BurntSushi/toml v1.5.0
	go.etcd.io/bbolt v1.4.3
)

require golang.org/x/sys v0.49.0 // indirect
