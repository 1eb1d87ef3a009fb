"""``python3 -m app serve|test``: the README's two commands (standard library only here).

They create ./.venv on first use, install the project into it, and run the real command
(app/cli.py) inside it, so a fresh machine needs nothing but Python.
"""

from app.bootstrap import main

if __name__ == "__main__":
    main()
