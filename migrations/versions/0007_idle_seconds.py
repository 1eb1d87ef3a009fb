"""tables.idle_seconds: how long nobody had been at a table when its server stopped

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-29 16:30:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idle_seconds', sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('idle_seconds')
