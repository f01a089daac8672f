# The club's money log: its money settings, payout table, side pools and treasurers (a club
# is not an event). The same model as main's 0004_money_trust creates: when both meet, this
# migration is dropped and 0005 depends on 0004.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0022_registration_partner'),
        ('treasury', '0005_payout_table_check'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ClubAudit',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('actor', models.CharField(max_length=150, verbose_name='who')),
                ('action', models.CharField(max_length=40, verbose_name='action')),
                ('old', models.JSONField(blank=True, null=True, verbose_name='old value')),
                ('new', models.JSONField(blank=True, null=True, verbose_name='new value')),
                ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('at', models.DateTimeField(auto_now_add=True, verbose_name='when')),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.club', verbose_name='club')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'club money change',
                'verbose_name_plural': 'club money changes',
                'ordering': ['club', '-at', '-pk'],
            },
        ),
    ]
