"""tables.position, branch_of, branch_step: branches of finished matches ("what if")

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-14 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('position', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('branch_of', sa.String(length=32), nullable=True))
        batch_op.add_column(sa.Column('branch_step', sa.Integer(), nullable=True))
        batch_op.create_index(batch_op.f('ix_tables_branch_of'), ['branch_of'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_branch_of'))
        batch_op.drop_column('branch_step')
        batch_op.drop_column('branch_of')
        batch_op.drop_column('position')
