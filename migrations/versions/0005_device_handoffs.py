"""device_handoffs: "continue on another device" links (single use, expiring)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07 10:00:00
"""

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table('device_handoffs',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('sealed', sa.String(length=256), nullable=False),
    sa.Column('next_path', sa.String(length=256), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('expires_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('used_at', sa.DateTime(timezone=True), nullable=True),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('device_handoffs', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_handoffs_player_id'), ['player_id'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_device_handoffs_expires_at'), ['expires_at'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('device_handoffs', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_handoffs_expires_at'))
        batch_op.drop_index(batch_op.f('ix_device_handoffs_player_id'))
    op.drop_table('device_handoffs')
