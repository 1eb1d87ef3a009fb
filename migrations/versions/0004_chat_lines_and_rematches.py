"""chat lines stored with their table; tables.rematch_of

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0004'
down_revision = '0003'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('chat_lines',
    sa.Column('table_id', sa.String(length=32), nullable=False),
    sa.Column('seq', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=True),
    sa.Column('player_id', sa.String(length=32), nullable=True),
    sa.Column('name', sa.String(length=64), nullable=False),
    sa.Column('kind', sa.String(length=16), nullable=False),
    sa.Column('text', sa.Text(), nullable=True),
    sa.Column('code', sa.String(length=32), nullable=True),
    sa.Column('params', sa.JSON(), nullable=True),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('table_id', 'seq')
    )
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('rematch_of', sa.String(length=32), nullable=True))
        batch_op.create_index(batch_op.f('ix_tables_rematch_of'), ['rematch_of'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_tables_rematch_of'))
        batch_op.drop_column('rematch_of')
    op.drop_table('chat_lines')
