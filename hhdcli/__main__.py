from hhdcli.cli import main

main()
